import { openDb, type StoaDb } from '@stoa/db';
import { createFsBlobStore, createTieredBlobStore, openS3BlobStore, type BlobStore } from '@stoa/blob';
import { indexDelayOf, inlineBlobBytesOf, type StoaConfig } from './config.js';
import type { Hooks, Platform } from './platform.js';
import { guardedDb } from './db-guard.js';
import { durableCommits } from './durable.js';
import { fileIndexFolderHook } from './unified-search/file-index.js';
import { createOutboxDrainer } from './outbox/drain.js';
import { understandingFolderHook, understandingHook } from './understanding/hook.js';
import { closeParsers } from './understanding/parsing.js';
import { openAiCompatibleEmbeddings, type EmbeddingProvider } from './embeddings/provider.js';
import { localOnnxEmbeddings } from './embeddings/onnx-provider.js';

/** What a caller may choose when opening a platform; everything else comes from the configuration. */
export interface PlatformOptions {
  clock?: () => Date;
  /** The hooks that keep derived data in step; `standardHooks()` when left out. */
  hooks?: Hooks;
}

/**
 * The hooks every door runs with, inside the change's transaction: the understood documents' queue and chunks,
 * and the search index of a moved or deleted folder (one statement by path prefix). The index of a file's
 * contents is not a hook: the change enqueues it in the outbox (hooks.ts) and it is written after the commit.
 * Fresh arrays each call, so one platform's hooks never leak into another's.
 */
export function standardHooks(): Hooks {
  return { onFileChange: [understandingHook], onFolderChange: [fileIndexFolderHook, understandingFolderHook] };
}

/**
 * Opens the database and blob store named by the configuration and builds the platform. The one wiring of the
 * core: the server, the CLI's local mode, MCP over stdio and the tests (testing.ts) all build it here.
 *
 * @example
 * const platform = await openPlatform(loadConfig({ dataDir: './stoa-data', env: process.env }));
 */
export async function openPlatform(config: StoaConfig, opts: PlatformOptions = {}): Promise<Platform> {
  const db = await openDb(config.database);
  try {
    return assemblePlatform({ db, blobs: await openBlobStore(config.storage), config, ...opts });
  } catch (e) {
    await db.close();
    throw e;
  }
}

/**
 * Builds a platform from parts that are already open; `close` closes them. Blobs up to `inlineBlobBytes` are
 * kept in the database in front of `blobs` (the one place this rule lives: decision 0021).
 *
 * @example
 * const platform = assemblePlatform({ db, blobs: createFsBlobStore({ root }), config });
 */
export function assemblePlatform(parts: { db: StoaDb; blobs: BlobStore; config: StoaConfig } & PlatformOptions): Platform {
  const { db, config } = parts;
  const inlineBytes = inlineBlobBytesOf(config);
  const blobs = inlineBytes > 0 ? createTieredBlobStore({ store: parts.blobs, table: db.inlineBlobs, maxInlineBytes: inlineBytes }) : parts.blobs;
  const platform: Platform = {
    db: guardedDb(db),
    blobs,
    config,
    clock: parts.clock ?? (() => new Date()),
    hooks: parts.hooks ?? standardHooks(),
    embeddings: embeddingProvider(config.embeddings),
    outbox: createOutboxDrainer(() => platform, { delayMs: indexDelayOf(config) }),
    durable: durableCommits(db),
    close: async () => {
      // A drain in flight ends before the database closes; what it leaves pending is drained at the next start.
      await platform.outbox.idle();
      // Parser workers first: a parse in flight ends before the database it reports to closes.
      await closeParsers(platform);
      await platform.embeddings?.close?.();
      await blobs.close?.();
      await db.close();
    },
  };
  return platform;
}

/** The provider of the configured model: nothing is loaded here (a local model loads on first use). */
function embeddingProvider(config: StoaConfig['embeddings']): EmbeddingProvider | null {
  if (!config) return null;
  return config.kind === 'onnx' ? localOnnxEmbeddings(config) : openAiCompatibleEmbeddings(config);
}

async function openBlobStore(storage: StoaConfig['storage']): Promise<BlobStore> {
  if (storage.kind === 'fs') return createFsBlobStore({ root: storage.root });
  return openS3BlobStore({
    bucket: storage.bucket,
    prefix: storage.prefix,
    endpoint: storage.endpoint,
    region: storage.region,
    credentials: storage.accessKeyId && storage.secretAccessKey ? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey } : undefined,
  });
}
