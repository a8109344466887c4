import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { Q } from '../platform.js';
import { ancestorDirs, baseName, dirOf } from '../paths.js';
import { hotQuery } from '../hot-query.js';

/**
 * The folder table, kept in the same transaction as the file rows: how many files each folder holds
 * (recursively), so listing subfolders never scans every file. A folder implied by a file path appears with its
 * first file and disappears with its last (F2); a folder created on purpose (`kept`, see folders.ts) stays
 * when empty (F9 as amended).
 */
export async function addToDirs(trx: Q, projectId: string, filePath: string): Promise<void> {
  await refusePathClash(trx, projectId, filePath);
  const dirs = ancestorDirs(filePath);
  if (dirs.length === 0) return;
  // Every folder above the file in one statement, outermost first (the order writers lock them in).
  const args: Record<string, string> = { project: projectId };
  dirs.forEach((d, i) => {
    args[`p${i}`] = d;
    args[`u${i}`] = dirOf(d);
    args[`n${i}`] = baseName(d);
  });
  await countInDirs(trx, args, dirs.length);
}

/** The folders above a new file count it, made when new (`p<i>`, `u<i>` its parent, `n<i>` its name): every new file runs it, so it is built once per depth. */
const countInDirs = hotQuery((db, a: Record<string, string>, depth) =>
  db
    .insertInto('dirs')
    .values(Array.from({ length: depth }, (_, i) => ({ project_id: a.project!, path: a[`p${i}`]!, parent: a[`u${i}`]!, name: a[`n${i}`]!, file_count: 1 })))
    .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ file_count: sql`dirs.file_count + 1` })),
);

export async function removeFromDirs(trx: Q, projectId: string, filePath: string): Promise<void> {
  const dirs = ancestorDirs(filePath);
  if (dirs.length === 0) return;
  await trx
    .updateTable('dirs')
    .set({ file_count: sql`file_count - 1` })
    .where('project_id', '=', projectId)
    .where('path', 'in', dirs)
    .execute();
  await trx.deleteFrom('dirs').where('project_id', '=', projectId).where('path', 'in', dirs).where('file_count', '<=', 0).where('kept', '=', 0).execute();
}

/**
 * A file and a folder never share a path (`docs` and `docs/a.md` cannot both be files). The write that would make
 * them clash is the one refused, whichever kind it is: a new file where a folder is, or a file inside a "folder"
 * that is a file. Runs in the writer's transaction, before the file's row counts in its folders.
 */
export async function refusePathClash(trx: Q, projectId: string, filePath: string): Promise<void> {
  const dirs = ancestorDirs(filePath);
  const args: Record<string, string> = { project: projectId, path: filePath };
  dirs.forEach((d, i) => (args[`p${i}`] = d));
  // Both questions in one statement: is the path a folder (k = 0), is a folder above it a file (k = 1).
  const rows = await clashes(trx, args, dirs.length);
  if (rows.some((r) => Number(r.k) === 0))
    throw new StoaError('already_exists', `"${filePath}" is a folder; a file cannot have the same path as a folder — choose another name`);
  const file = rows[0];
  if (file)
    throw new StoaError('already_exists', `"${file.path}" is a file, so "${filePath}" cannot be created inside it; a file and a folder cannot share a path`);
}

/** A folder at `path` (k = 0) and files at the folders above it (`p0` … `p<depth - 1>`, k = 1): built once per depth. */
const clashes = hotQuery((db, a: Record<string, string>, depth) => {
  const folder = db
    .selectFrom('dirs')
    .select([sql<number>`0`.as('k'), 'path'])
    .where('project_id', '=', a.project!)
    .where('path', '=', a.path!);
  if (depth === 0) return folder;
  return folder.unionAll(
    db
      .selectFrom('files')
      .select([sql<number>`1`.as('k'), 'path'])
      .where('project_id', '=', a.project!)
      .where(
        'path',
        'in',
        Array.from({ length: depth }, (_, i) => a[`p${i}`]!),
      ),
  );
});

/**
 * How many files lie directly in `folder` (not below its subfolders), read from the folder index rather than
 * counted: a folder's recursive count minus its subfolders' — so a folder page costs the same at 1,000 and at
 * 1,000,000 files (bench/files-scale.ts). The root has no row of its own; its own files are counted (what the
 * root holds directly, not the project).
 */
export async function directFileCount(q: Q, projectId: string, folder: string): Promise<number> {
  if (folder === '') {
    const r = await sql<{ n: number | string }>`select count(*) as n from files where project_id = ${projectId} and dir = ''`.execute(q);
    return Number(r.rows[0]?.n ?? 0);
  }
  const r = await sql<{ n: number | string | null }>`select
      coalesce((select file_count from dirs where project_id = ${projectId} and path = ${folder}), 0)
      - coalesce((select sum(file_count) from dirs where project_id = ${projectId} and parent = ${folder}), 0) as n`.execute(q);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * How many files the project holds, from the folder index: the root's own files plus each top-level folder's
 * recursive count — never a count of every file row (which grows with the project; bench/files-scale.ts).
 */
export async function projectFileCount(q: Q, projectId: string): Promise<number> {
  const r = await sql<{ n: number | string | null }>`select
      (select count(*) from files where project_id = ${projectId} and dir = '')
      + coalesce((select sum(file_count) from dirs where project_id = ${projectId} and parent = ''), 0) as n`.execute(q);
  return Number(r.rows[0]?.n ?? 0);
}
