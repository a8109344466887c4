import { resumeProjectDeletions } from '../projects/delete-project.js';
import type { Platform } from '../platform.js';
import { inTx } from '../platform.js';
import { expireUploads } from './upload-reservation.js';
import { sweepOAuthCredentials } from '../oauth/oauth-grants.js';
import { expireTrash } from '../trash/expire-trash.js';
import { pruneThumbnails } from './thumbnail-cache.js';

/**
 * Columns that reference blobs. Areas that keep blobs elsewhere add theirs at start-up.
 */
export const blobReferences: Array<{ table: string; column: string }> = [
  { table: 'file_versions', column: 'blob_key' },
  { table: 'files', column: 'blob_key' },
  // A trashed file's versions keep their bytes until the trash entry is purged (issue 29).
  { table: 'trash_versions', column: 'blob_key' },
  { table: 'trash_files', column: 'blob_key' },
];

/**
 * Collects blobs that nothing references any more, never inline in a write (docs/architecture.md "Storage"). Only blobs whose
 * row was last touched before `graceMs` ago are taken. Each deletion holds the blob's row lock while it removes
 * the bytes, and writers touch that row in their commit and then re-check the bytes (see `commitVersion`), so a
 * writer that re-uses an old blob's content at the same moment either keeps it alive or stores it again.
 *
 * @example
 * await sweepBlobs(platform, { graceMs: 60 * 60_000 });
 */
export async function sweepBlobs(platform: Platform, opts: { graceMs: number }): Promise<{ deleted: number; expiredUploads: number; adopted: number }> {
  const expiredUploads = await expireUploads(platform);
  const adopted = await adoptUnknownBlobs(platform);
  const cutoff = new Date(platform.clock().getTime() - opts.graceMs).toISOString();
  const db = platform.db.kysely;
  const unreferenced = (q: any) =>
    q.where(({ not, exists, selectFrom, and }: any) =>
      and(blobReferences.map((ref) => not(exists(selectFrom(ref.table).select(ref.column).whereRef(`${ref.table}.${ref.column}`, '=', 'blobs.key'))))),
    );
  const orphans: Array<{ key: string }> = await unreferenced(db.selectFrom('blobs').select('key').where('created_at', '<', cutoff)).execute();
  let deleted = 0;
  for (const o of orphans) {
    const gone = await inTx(platform, async (trx) => {
      const r = await unreferenced(trx.deleteFrom('blobs').where('key', '=', o.key).where('created_at', '<', cutoff)).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await platform.blobs.delete(o.key);
      return true;
    });
    if (gone) deleted++;
  }
  return { deleted, expiredUploads, adopted };
}

/**
 * Bytes that reached the store but whose commit never happened (a crash between the two, a write refused at
 * its commit) have no `blobs` row, so the sweep above would never see them. Give each one a row stamped now:
 * its grace period starts at first sight, so bytes a writer is about to commit are safe (its commit stamps the
 * row again), and a later sweep collects them if still nothing references them.
 */
export async function adoptUnknownBlobs(platform: Platform): Promise<number> {
  const db = platform.db.kysely;
  const now = platform.clock().toISOString();
  let adopted = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const known = new Set((await db.selectFrom('blobs').select('key').where('key', 'in', batch).execute()).map((r) => r.key));
    for (const key of batch) {
      if (known.has(key)) continue;
      const size = (await platform.blobs.stat(key))?.size;
      if (size === undefined) continue;
      const r = await db
        .insertInto('blobs')
        .values({ key, size, created_at: now })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      adopted += Number(r.numInsertedOrUpdatedRows ?? 0);
    }
    batch = [];
  };
  for await (const key of platform.blobs.list()) {
    batch.push(key);
    if (batch.length >= 500) await flush();
  }
  await flush();
  return adopted;
}

export interface HousekeepingOptions {
  /** Time between sweeps; 0 sweeps only once, at start. */
  intervalMs: number;
  /** Unreferenced bytes younger than this are kept (uploads in flight). */
  graceMs: number;
  onError: (e: unknown) => void;
}

/**
 * Runs the sweep at start and then every `intervalMs` (never two at once): project deletions left unfinished,
 * trash entries past STOA_TRASH_DAYS or over STOA_TRASH_MAX_BYTES, expired direct uploads, temporary files of interrupted writes, unreferenced and never-committed blobs, thumbnails of pictures no longer stored (and the least used over the
 * cache's cap), and OAuth credentials past their lifetime. Returns a stop function.
 *
 * @example
 * const stop = startHousekeeping(platform, { intervalMs: 600_000, graceMs: 3_600_000, onError: console.error });
 */
export function startHousekeeping(platform: Platform, opts: HousekeepingOptions): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    // Deletions a restart interrupted finish first, and the trash drops what is past its days or over its cap, so
    // the blobs only they referenced are collected in this sweep. Temporary files are a day old before they go: a
    // write may stream for hours.
    resumeProjectDeletions(platform)
      .then(() => expireTrash(platform))
      .then(() =>
        Promise.all([
          // Thumbnails after the blobs: a picture whose last blob this sweep collects loses its thumbnail next time.
          sweepBlobs(platform, { graceMs: opts.graceMs }).then(() => pruneThumbnails(platform)),
          platform.blobs.sweepTemp?.(Math.max(opts.graceMs, 24 * 3600_000)),
          sweepOAuthCredentials(platform),
        ]),
      )
      .catch(opts.onError)
      .finally(() => (running = false));
  };
  sweep();
  const timer = opts.intervalMs > 0 ? setInterval(sweep, opts.intervalMs) : null;
  timer?.unref();
  return () => {
    if (timer) clearInterval(timer);
  };
}
