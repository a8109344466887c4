/**
 * Test and benchmark only (exported by `@stoa/core/testing`): a project of many files, fast, with the rows a
 * file write leaves. One file is stored through putFile (blob, rows, folder index, name index, usage counter);
 * every other file is a copy of its `files` and `file_versions` rows with another path, inserted by set-based
 * statements of `BATCH` rows (the paths go in as one JSON array, the other columns are copied from the seed's
 * rows), so the name index triggers (SQLite) and the indexes run as for any insert. Then the `dirs` folder index
 * and the project's usage counter are filled in to match — what commitVersion writes, without a million blob
 * writes. Not written: the change feed, audit entries and the unified search of names and contents.
 */
import { sql } from 'kysely';
import { baseName, dirOf } from '../paths.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';

const BATCH = 10_000;

/** The rows of `paths[1..]` copied from the row of `paths[0]`, stored through putFile; `progress` per batch. */
export async function fillProject(ctx: Ctx, paths: string[], progress: (done: number) => void = () => undefined): Promise<void> {
  const db = ctx.platform.db.kysely;
  const pg = ctx.platform.db.dialect === 'postgres';
  const seed = await putFile(ctx, { path: paths[0]!, source: 'seed content' });
  const fileCols = Object.keys(await db.selectFrom('files').selectAll().where('id', '=', seed.file.id).executeTakeFirstOrThrow());
  const verCols = Object.keys(await db.selectFrom('file_versions').selectAll().where('file_id', '=', seed.file.id).executeTakeFirstOrThrow());
  // j(k): the k-th element of a JSON row (file id, path, dir, name, name_lower, version id).
  const j = (k: number): string => `(j.value ->> ${k})`;
  const fileVary: Record<string, string> = { id: j(0), path: j(1), dir: j(2), name: j(3), name_lower: j(4) };
  const verVary: Record<string, string> = { id: j(5), file_id: j(0), path: j(1) };
  const insert = (table: 'files' | 'file_versions', cols: string[], vary: Record<string, string>, seedCol: string, json: string) => {
    const rows = pg ? sql`jsonb_array_elements(cast(${json} as jsonb)) as j(value)` : sql`json_each(${json}) as j`;
    const select = cols.map((c) => vary[c] ?? `s.${c}`).join(', ');
    return sql`insert into ${sql.raw(table)} (${sql.raw(cols.join(', '))}) select ${sql.raw(select)} from ${rows} cross join ${sql.raw(table)} s where ${sql.raw(`s.${seedCol}`)} = ${seed.file.id}`;
  };
  const rest = paths.slice(1);
  for (let b = 0; b < rest.length; b += BATCH) {
    const batch = rest.slice(b, b + BATCH).map((p, k) => {
      const n = String(b + k).padStart(9, '0');
      return [`fil_bench${n}`, p, dirOf(p), baseName(p), baseName(p).toLowerCase(), `ver_bench${n}`];
    });
    const json = JSON.stringify(batch);
    await db.transaction().execute(async (trx) => {
      await insert('files', fileCols, fileVary, 'id', json).execute(trx);
      await insert('file_versions', verCols, verVary, 'file_id', json).execute(trx);
    });
    progress(b + batch.length + 1);
  }
  const seedSize = Number(seed.file.size);
  const dirs = new Map<string, number>();
  for (const p of rest) for (let d = dirOf(p); d; d = dirOf(d)) dirs.set(d, (dirs.get(d) ?? 0) + 1);
  await db.transaction().execute(async (trx) => {
    const existing = new Set((await trx.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).execute()).map((d) => d.path));
    const fresh = [...dirs].filter(([d]) => !existing.has(d));
    for (let b = 0; b < fresh.length; b += 500) {
      await trx
        .insertInto('dirs')
        .values(fresh.slice(b, b + 500).map(([d, c]) => ({ project_id: ctx.project.id, path: d, parent: dirOf(d), name: baseName(d), file_count: c })))
        .execute();
    }
    for (const d of existing) {
      await trx
        .updateTable('dirs')
        .set((eb) => ({ file_count: eb('file_count', '+', dirs.get(d) ?? 0) }))
        .where('project_id', '=', ctx.project.id)
        .where('path', '=', d)
        .execute();
    }
    await trx
      .updateTable('projects')
      .set((eb) => ({ used_bytes: eb('used_bytes', '+', seedSize * rest.length) }))
      .where('id', '=', ctx.project.id)
      .execute();
  });
  // PostgreSQL plans by statistics; autovacuum would gather them soon after such a bulk insert anyway.
  if (pg) await sql`analyze`.execute(db);
}
