import { createHash } from 'node:crypto';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import type { FileInfo } from './file-info.js';
import { inSqlBatches } from '../db-batches.js';

/** SHA-1 and MD5 of a file's content, hex. */
export interface LegacyDigests {
  sha1: string;
  md5: string;
}

/**
 * Content larger than this is not hashed on request: a listing must not read gigabytes. Sync clients then
 * compare such files by size and modification time, as they do when a server has no hash.
 */
export const LEGACY_DIGEST_MAX_BYTES = 64 * 1024 * 1024;

/**
 * SHA-1 and MD5 of the given files' contents, for sync clients that know only those (rclone's nextcloud and
 * owncloud vendors use them for `--checksum` and `check`). Stoa's own hash is sha256; these are computed the
 * first time a client asks, once per content (migration 018), and kept. Files over LEGACY_DIGEST_MAX_BYTES
 * without a stored digest are left out of the answer.
 *
 * @example
 * const d = await legacyDigestsOf(ctx, page.files); d.get(file.sha256) // { sha1: 'a9993e…', md5: '900150…' }
 */
export async function legacyDigestsOf(ctx: Ctx, files: FileInfo[]): Promise<Map<string, LegacyDigests>> {
  const out = new Map<string, LegacyDigests>();
  if (files.length === 0) return out;
  for (const f of files) assertCan(ctx.actor, 'file.read', { kind: 'file', path: f.path });
  const db = ctx.platform.db.kysely;
  const shas = [...new Set(files.map((f) => f.sha256))];
  const known = await inSqlBatches(ctx.platform.db.dialect, shas, (batch) => db.selectFrom('blob_digests').selectAll().where('sha256', 'in', batch).execute());
  for (const r of known) out.set(r.sha256, { sha1: r.sha1, md5: r.md5 });
  // The first file of each content, found through a set: a findIndex per file was quadratic in a page of 20,000.
  const firstOf = new Set<string>();
  const missing = files.filter((f) => !firstOf.has(f.sha256) && firstOf.add(f.sha256) && !out.has(f.sha256) && f.size <= LEGACY_DIGEST_MAX_BYTES);
  if (missing.length === 0) return out;
  const keys = await inSqlBatches(
    ctx.platform.db.dialect,
    missing.map((f) => f.id),
    (batch) => db.selectFrom('files').select(['id', 'blob_key']).where('project_id', '=', ctx.project.id).where('id', 'in', batch).execute(),
  );
  const keyOf = new Map(keys.map((k) => [k.id, k.blob_key]));
  for (const f of missing) {
    const key = keyOf.get(f.id);
    if (!key) continue;
    const sha1 = createHash('sha1');
    const md5 = createHash('md5');
    for await (const chunk of await ctx.platform.blobs.get(key)) {
      sha1.update(chunk as Buffer);
      md5.update(chunk as Buffer);
    }
    const d = { sha1: sha1.digest('hex'), md5: md5.digest('hex') };
    await db
      .insertInto('blob_digests')
      .values({ sha256: f.sha256, ...d })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
    out.set(f.sha256, d);
  }
  return out;
}
