import { Readable } from 'node:stream';
import type { Ctx, Platform } from '../platform.js';
import { openFile } from './read-file.js';

/**
 * Test helper: what must hold after any operation, successful or refused (issue "Bad input and faults"):
 * usage equals the sum of current file sizes, reservations equal the pending uploads, every file row has its
 * current version row and its blob, no version row without its file, folder counts match the files.
 * Returns the list of violations (empty when consistent), so a test shows what broke.
 *
 * @example
 * expect(await storeViolations(ctx)).toEqual([]);
 */
export async function storeViolations(ctx: Ctx): Promise<string[]> {
  const db = ctx.platform.db.kysely;
  const pid = ctx.project.id;
  const out: string[] = [];
  const p = await db.selectFrom('projects').select(['used_bytes', 'reserved_bytes']).where('id', '=', pid).executeTakeFirstOrThrow();
  const files = await db.selectFrom('files').select(['id', 'path', 'size', 'version', 'blob_key', 'dir']).where('project_id', '=', pid).execute();
  const sum = files.reduce((n, f) => n + Number(f.size), 0);
  if (Number(p.used_bytes) !== sum) out.push(`used_bytes ${p.used_bytes} != sum of file sizes ${sum}`);
  const pending = await db
    .selectFrom('upload_reservations')
    .select(['size'])
    .where('project_id', '=', pid)
    .where('status', 'in', ['pending', 'receiving'])
    .execute();
  // Uploads whose bytes are still arriving hold their reservation too.
  const reserved = pending.reduce((n, r) => n + Number(r.size), 0);
  if (Number(p.reserved_bytes) !== reserved) out.push(`reserved_bytes ${p.reserved_bytes} != pending reservations ${reserved}`);
  for (const f of files) {
    const v = await db.selectFrom('file_versions').select(['blob_key']).where('file_id', '=', f.id).where('version', '=', f.version).executeTakeFirst();
    if (!v) out.push(`${f.path}: no row for its current version ${f.version}`);
    else if (v.blob_key !== f.blob_key) out.push(`${f.path}: current version row points at another blob`);
    if (!(await ctx.platform.blobs.stat(f.blob_key))) out.push(`${f.path}: blob ${f.blob_key.slice(0, 8)} is missing`);
  }
  const orphanVersions = await db
    .selectFrom('file_versions')
    .select(['path'])
    .where('project_id', '=', pid)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('files').select('id').whereRef('files.id', '=', 'file_versions.file_id'))))
    .execute();
  for (const v of orphanVersions) out.push(`version row of "${v.path}" without its file`);
  const dirs = await db.selectFrom('dirs').select(['path', 'file_count']).where('project_id', '=', pid).execute();
  const want = new Map<string, number>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      want.set(d, (want.get(d) ?? 0) + 1);
    }
  }
  for (const d of dirs)
    if ((want.get(d.path) ?? 0) !== Number(d.file_count)) out.push(`folder "${d.path}" counts ${d.file_count}, has ${want.get(d.path) ?? 0}`);
  // Every folder's parent exists (kept empty folders included), so the tree never shows a folder without its parent.
  for (const d of dirs) {
    const parent = d.path.includes('/') ? d.path.slice(0, d.path.lastIndexOf('/')) : '';
    if (parent !== '' && !dirs.some((x) => x.path === parent)) out.push(`folder "${d.path}" has no parent folder "${parent}"`);
  }
  for (const [d] of want) if (!dirs.some((x) => x.path === d)) out.push(`folder "${d}" is missing`);
  return out;
}

/** Test helper: the whole content of a file (or one of its versions) as a UTF-8 string. */
export async function readText(ctx: Ctx, path: string, version?: number): Promise<string> {
  const f = await openFile(ctx, path, { version });
  const chunks: Buffer[] = [];
  for await (const c of f.stream as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Test helper: blob keys the store holds on disk. */
export async function storedBlobs(platform: Platform): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of platform.blobs.list()) keys.push(k);
  return keys.sort();
}
