import { StoaError } from '@stoa/contract';
import type { DocAssetsTable } from '@stoa/db';
import type { Selectable } from 'kysely';
import { newId } from '../ids.js';
import { baseName } from '../paths.js';
import { inTx, type Ctx, type Platform } from '../platform.js';
import { findFileRow, statFile } from '../files/read-file.js';
import { indexDoc, removeDoc } from '../search/index.js';
import { FILE_VISIBILITY } from '../unified-search/file-index.js';
import { parsingOf } from '../config.js';
import { parserFor, type ParseMode } from './parse.js';
import type { ParseFailureCode } from './parse-refusal.js';
import { parseStoredFile } from './parsing.js';
import { indexableText } from '../text-rules.js';
import { embedPending, vectorStatus } from '../embeddings/embed-pending.js';

/** Search-index kind of document chunks; they share the file contents' visibility (read rights are by path). */
export const CHUNK_KIND = 'chunk';
/** Chunks of this many earlier versions are kept so citations into them can still be validated (B4). */
const KEEP_VERSIONS = 5;
const PARSE_MODES: ParseMode[] = ['auto', 'text', 'pdf', 'docx'];

export interface UnderstandingStatus {
  fileAssetId: string;
  path: string;
  version: number;
  /** Parse status of the current version. */
  status: 'pending' | 'ready' | 'failed';
  /**
   * Vectors of the current version's chunks: `unavailable` when the installation has no embedding model (search
   * is lexical), `pending` until the embedder has them, `ready`, or `failed` (see `vectorIndexError`).
   */
  vectorIndexStatus: 'pending' | 'ready' | 'failed' | 'unavailable';
  /** Why the vectors are failed (or being retried): the embedding provider's reason; null otherwise. */
  vectorIndexError: string | null;
  parseMode: ParseMode;
  chunkCount: number;
  error: string | null;
  /** Stable code of why parsing failed (see ParseFailureCode), null unless failed or being retried. */
  errorCode: ParseFailureCode | null;
  /** Parse attempts of this version; after `parsing.maxAttempts` the asset stays failed. */
  attempts: number;
  updatedAt: string;
}

type AssetRow = Pick<
  Selectable<DocAssetsTable>,
  'id' | 'path' | 'version' | 'status' | 'parse_mode' | 'chunk_count' | 'error' | 'error_code' | 'attempts' | 'updated_at'
>;

async function statusOf(platform: Platform, a: AssetRow): Promise<UnderstandingStatus> {
  const vectors = await vectorStatus(platform, { assetId: a.id, version: a.version, parsed: a.status === 'ready' });
  return {
    fileAssetId: a.id,
    path: a.path,
    version: a.version,
    status: a.status as UnderstandingStatus['status'],
    vectorIndexStatus: vectors.status,
    vectorIndexError: vectors.error,
    parseMode: a.parse_mode as ParseMode,
    chunkCount: a.chunk_count,
    error: a.error,
    errorCode: a.error_code as ParseFailureCode | null,
    attempts: a.attempts,
    updatedAt: a.updated_at,
  };
}

/**
 * Registers an existing file for parsing and indexing (R6 `understandFile`) and parses it now. Re-registering
 * a file that changed parses the new version; an unchanged, ready file is left as it is.
 *
 * @example
 * const s = await understandFile(ctx, { path: 'contracts/lease.pdf' }); // s.status 'ready', s.chunkCount 12
 */
export async function understandFile(ctx: Ctx, input: { path: string; parseMode?: ParseMode }): Promise<UnderstandingStatus> {
  const mode = input.parseMode ?? 'auto';
  if (!PARSE_MODES.includes(mode)) throw new StoaError('bad_request', `parse mode must be one of ${PARSE_MODES.join(', ')}`);
  const info = await statFile(ctx, input.path);
  if (!parserFor(info.type, mode)) throw new StoaError('not_a_text_file', `files of type ${info.type} cannot be parsed (text, PDF and DOCX can)`);
  const now = ctx.platform.clock().toISOString();
  const db = ctx.platform.db.kysely;
  const asset = await db.selectFrom('doc_assets').selectAll().where('project_id', '=', ctx.project.id).where('file_id', '=', info.id).executeTakeFirst();
  if (asset && asset.version === info.version && asset.parse_mode === mode && asset.status === 'ready') return statusOf(ctx.platform, asset);
  if (!asset) {
    const fresh = {
      id: newId('fa'),
      project_id: ctx.project.id,
      file_id: info.id,
      path: info.path,
      version: info.version,
      sha256: info.sha256,
      parse_mode: mode,
      status: 'pending',
      vector_status: 'derived',
      error: null,
      chunk_count: 0,
      updated_at: now,
    };
    await db
      .insertInto('doc_assets')
      .values({ ...fresh, text_chars: 0, created_at: now, deleted_at: null })
      .onConflict((oc) => oc.columns(['project_id', 'file_id']).doNothing())
      .execute();
    return parseAsset(ctx.platform, fresh.id);
  }
  // Asked for again by a person or agent: a fresh count of attempts.
  await db
    .updateTable('doc_assets')
    .set({ parse_mode: mode, status: 'pending', error: null, error_code: null, attempts: 0, updated_at: now })
    .where('id', '=', asset.id)
    .execute();
  return parseAsset(ctx.platform, asset.id);
}

/** Compact status of a file's understanding, without parsed text (R6 `getUnderstandingStatus`). */
export async function understandingStatus(ctx: Ctx, path: string): Promise<UnderstandingStatus> {
  const info = await statFile(ctx, path);
  const a = await ctx.platform.db.kysely
    .selectFrom('doc_assets')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('file_id', '=', info.id)
    .executeTakeFirst();
  if (!a) throw new StoaError('not_found', `"${info.path}" has not been registered for understanding; run understand first`);
  return statusOf(ctx.platform, a);
}

/** Parses a failed asset again (R6 `retryUnderstanding`). */
export async function retryUnderstanding(ctx: Ctx, path: string): Promise<UnderstandingStatus> {
  const s = await understandingStatus(ctx, path);
  if (s.status !== 'failed') throw new StoaError('bad_request', `"${s.path}" is ${s.status}, not failed; nothing to retry`);
  await ctx.platform.db.kysely
    .updateTable('doc_assets')
    .set({ status: 'pending', error: null, error_code: null, attempts: 0 })
    .where('id', '=', s.fileAssetId)
    .execute();
  return parseAsset(ctx.platform, s.fileAssetId);
}

/**
 * Parses, chunks and indexes the current version of an asset's file, in a parser worker under the caps. The
 * chunks and their index entries are written in one transaction; a failure keeps the old chunks and records a
 * reason. Each attempt is counted before it starts, so an attempt that ends the whole process still counts: a
 * parser that crashed, ran out of memory or time is retried (the asset stays pending) until
 * `parsing.maxAttempts`, then the asset is failed for good; a file over a cap or unreadable fails at once.
 */
export function parseAsset(platform: Platform, assetId: string): Promise<UnderstandingStatus> {
  // One parse of an asset at a time in this process: a request and the background loop share it.
  let running = inFlight.get(platform);
  if (!running) inFlight.set(platform, (running = new Map()));
  const current = running.get(assetId);
  if (current) return current;
  const parse = parseAssetOnce(platform, assetId).finally(() => running.delete(assetId));
  running.set(assetId, parse);
  return parse;
}

const inFlight = new WeakMap<Platform, Map<string, Promise<UnderstandingStatus>>>();

async function parseAssetOnce(platform: Platform, assetId: string): Promise<UnderstandingStatus> {
  const db = platform.db.kysely;
  const a = await db.selectFrom('doc_assets').selectAll().where('id', '=', assetId).executeTakeFirstOrThrow();
  const file = await db.selectFrom('files').selectAll().where('id', '=', a.file_id).executeTakeFirst();
  const now = platform.clock().toISOString();
  const fail = async (code: ParseFailureCode, reason: string, status: 'failed' | 'pending' = 'failed') => {
    await db
      .updateTable('doc_assets')
      .set({ status, error: reason, error_code: code, ...(file ? { version: file.version } : {}), updated_at: now })
      .where('id', '=', a.id)
      .execute();
  };
  const maxAttempts = parsingOf(platform.config).maxAttempts;
  if (!file) {
    await fail('deleted', 'the file was deleted');
  } else if (a.attempts >= maxAttempts) {
    await fail('gave_up', `gave up after ${a.attempts} attempts${a.error ? ` (last: ${a.error.replace(/ \(attempt \d+ of \d+\)$/, '')})` : ''}`);
  } else {
    // Claimed by counting the attempt; another process that counted it first is parsing it now.
    const claim = await db
      .updateTable('doc_assets')
      .set({ attempts: a.attempts + 1 })
      .where('id', '=', a.id)
      .where('attempts', '=', a.attempts)
      .executeTakeFirst();
    const attempt = a.attempts + 1;
    const outcome = claim.numUpdatedRows > 0n ? await parseStoredFile(platform, file, a.parse_mode as ParseMode, { chunk: true }) : null;
    if (!outcome || (!outcome.ok && outcome.interrupted)) {
      // Parsed elsewhere, or the server is stopping: nothing to record (the attempt stays counted, as after a crash).
    } else if (!outcome.ok) {
      const parserEnded = outcome.code === 'timeout' || outcome.code === 'out_of_memory' || outcome.code === 'worker_crashed';
      if (parserEnded && attempt < maxAttempts) await fail(outcome.code, `${outcome.reason} (attempt ${attempt} of ${maxAttempts})`, 'pending');
      else await fail(outcome.code, outcome.reason);
    } else {
      const { doc, chunks } = outcome;
      await inTx(platform, async (trx) => {
        await trx.deleteFrom('doc_chunks').where('asset_id', '=', a.id).where('version', '=', file.version).execute();
        await trx
          .deleteFrom('doc_chunks')
          .where('asset_id', '=', a.id)
          .where('version', '<=', file.version - KEEP_VERSIONS)
          .execute();
        const old = await trx.selectFrom('doc_chunks').select('id').where('asset_id', '=', a.id).execute();
        for (const o of old) await removeDoc({ kysely: trx, dialect: platform.db.dialect }, { projectId: a.project_id, kind: CHUNK_KIND, refId: o.id });
        for (const c of chunks) {
          const id = newId('ch');
          await trx
            .insertInto('doc_chunks')
            .values({
              id,
              asset_id: a.id,
              project_id: a.project_id,
              path: file.path,
              version: file.version,
              idx: c.idx,
              text: indexableText(c.text),
              start_offset: c.start,
              end_offset: c.end,
              page: c.page,
              content_hash: c.hash,
              created_at: now,
            })
            .execute();
          await indexDoc(
            { kysely: trx, dialect: platform.db.dialect },
            {
              projectId: a.project_id,
              kind: CHUNK_KIND,
              refId: id,
              path: file.path,
              title: baseName(file.path),
              body: indexableText(c.text),
              visibility: FILE_VISIBILITY,
              updatedAt: now,
            },
          );
        }
        await trx
          .updateTable('doc_assets')
          .set({
            status: 'ready',
            error: null,
            error_code: null,
            version: file.version,
            sha256: file.sha256,
            path: file.path,
            chunk_count: chunks.length,
            text_chars: doc.text.length,
            updated_at: now,
          })
          .where('id', '=', a.id)
          .execute();
      });
      // The chunks' vectors now, so a status read after understanding says ready; what fails here the
      // background embedder retries with back-off.
      await embedPending(platform, { assetChunks: { assetId: a.id, version: file.version }, max: chunks.length });
    }
  }
  const done = await db.selectFrom('doc_assets').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
  return statusOf(platform, done);
}

/** Parses every pending asset (the server runs this in the background after files change). */
export async function processPendingAssets(platform: Platform, limit = 20): Promise<number> {
  const rows = await platform.db.kysely
    .selectFrom('doc_assets')
    .select('id')
    .where('status', '=', 'pending')
    .where('deleted_at', 'is', null)
    .limit(limit)
    .execute();
  for (const r of rows) await parseAsset(platform, r.id);
  return rows.length;
}

/** The current file row of an asset, or null when the file is gone. */
export async function assetFile(ctx: Ctx, fileId: string) {
  return ctx.platform.db.kysely.selectFrom('files').selectAll().where('id', '=', fileId).where('project_id', '=', ctx.project.id).executeTakeFirst();
}

export { findFileRow };
