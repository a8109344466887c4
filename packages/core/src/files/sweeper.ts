import type { Platform } from '../platform.js';
import { inTx } from '../platform.js';
import { expireUploads } from './direct-upload.js';

/**
 * Columns that reference blobs. Areas that keep blobs elsewhere add theirs at start-up.
 */
export const blobReferences: Array<{ table: string; column: string }> = [
  { table: 'file_versions', column: 'blob_key' },
  { table: 'files', column: 'blob_key' },
];

/**
 * Collects blobs that nothing references any more, never inline in a write (DESIGN "Storage"). Only blobs whose
 * row was last touched before `graceMs` ago are taken. Each deletion holds the blob's row lock while it removes
 * the bytes, and writers touch that row in their commit and then re-check the bytes (see `commitVersion`), so a
 * writer that re-uses an old blob's content at the same moment either keeps it alive or stores it again.
 *
 * @example
 * await sweepBlobs(platform, { graceMs: 60 * 60_000 });
 */
export async function sweepBlobs(platform: Platform, opts: { graceMs: number }): Promise<{ deleted: number; expiredUploads: number }> {
  const expiredUploads = await expireUploads(platform);
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
  return { deleted, expiredUploads };
}
