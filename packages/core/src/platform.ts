import { openDb, type StoaDb } from '@stoa/db';
import { createFsBlobStore, openS3BlobStore, type BlobStore } from '@stoa/blob';
import type { Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import type { StoaConfig } from './config.js';
import type { Actor } from './actors.js';
import type { ProjectRow } from './projects/project-row.js';
import { createHooks, type Hooks } from './hooks.js';
import { installAreas } from './areas.js';
import { closeParsers } from './understanding/parsing.js';
import './all-areas.js';

/** The long-lived parts every operation uses: database, blob store, configuration, clock and hooks. */
export interface Platform {
  db: StoaDb;
  blobs: BlobStore;
  config: StoaConfig;
  clock: () => Date;
  hooks: Hooks;
  close(): Promise<void>;
}

/** What an operation runs with (DESIGN "op(ctx, input)"). Built per request; never cached across requests. */
export interface Ctx {
  platform: Platform;
  actor: Actor;
  project: ProjectRow;
}

/** The query handle of the platform, or of the transaction an operation is running in. */
export type Q = Kysely<DB>;

/**
 * Opens the database and blob store named by the configuration.
 *
 * @example
 * const platform = await openPlatform(loadConfig({ dataDir: './stoa-data', env: process.env }));
 */
export async function openPlatform(config: StoaConfig, opts: { clock?: () => Date } = {}): Promise<Platform> {
  const db = await openDb(config.database);
  const blobs =
    config.storage.kind === 'fs'
      ? createFsBlobStore({ root: config.storage.root })
      : await openS3BlobStore({
          bucket: config.storage.bucket,
          prefix: config.storage.prefix,
          endpoint: config.storage.endpoint,
          region: config.storage.region,
          credentials:
            config.storage.accessKeyId && config.storage.secretAccessKey
              ? { accessKeyId: config.storage.accessKeyId, secretAccessKey: config.storage.secretAccessKey }
              : undefined,
        });
  const platform: Platform = {
    db,
    blobs,
    config,
    clock: opts.clock ?? (() => new Date()),
    hooks: createHooks(),
    close: async () => {
      await closeParsers(platform);
      await blobs.close?.();
      await db.close();
    },
  };
  installAreas(platform);
  return platform;
}

/** Runs `fn` in one database transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED + row locks). */
export function inTx<T>(platform: Platform, fn: (trx: Q) => Promise<T>): Promise<T> {
  return platform.db.kysely.transaction().execute(fn);
}
