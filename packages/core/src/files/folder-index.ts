import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { baseName, dirOf, normalizePath } from '../paths.js';
import type { Ctx, Q } from '../platform.js';
import { below } from './subtree-sql.js';
import type { FolderEntry } from './list-files.js';
import { countAgentChange } from '../operations/agent-gate.js';

/**
 * The folder rows as the folder changes share them (folders.ts, folder-move.ts, folder-delete.ts): lookups, the
 * files counted in each folder of a chain, a subtree's totals, and the locks a moved or deleted folder ends.
 */

/**
 * Counts a folder change against an agent's change window, in the change's transaction (a refused change never
 * counts). The tool runner passes its call's window; every other door counts in the actor's own (A4).
 */
export type CountChange = (trx: Q) => Promise<unknown>;

export async function countChange(trx: Q, ctx: Ctx, count: CountChange | undefined): Promise<void> {
  if (count) await count(trx);
  else await countAgentChange(trx, ctx);
}

export async function folderRow(q: Q, projectId: string, path: string) {
  return q.selectFrom('dirs').select(['path', 'name', 'file_count', 'kept']).where('project_id', '=', projectId).where('path', '=', path).executeTakeFirst();
}

/** The first of `paths` that is a file, if any (a folder cannot sit at or under a file's path). */
export async function fileAmong(q: Q, projectId: string, paths: string[]): Promise<string | undefined> {
  if (paths.length === 0) return undefined;
  const row = await q.selectFrom('files').select('path').where('project_id', '=', projectId).where('path', 'in', paths).executeTakeFirst();
  return row?.path;
}

export function toEntry(r: { path: string; name: string; file_count: number | string }): FolderEntry {
  return { path: r.path, name: r.name, fileCount: Number(r.file_count) };
}

export function folderPath(input: string, what: string): string {
  const path = normalizePath(input, 'folder');
  if (path === '') throw new StoaError('bad_request', `the root folder cannot be ${what}`);
  return path;
}

/** Adds `count` files (and keeps, when `kept`) to each folder of `chain`, creating the missing ones. */
export async function addToChain(trx: Q, projectId: string, chain: string[], count: number, kept: number): Promise<void> {
  for (const d of chain) {
    await trx
      .insertInto('dirs')
      .values({ project_id: projectId, path: d, parent: dirOf(d), name: baseName(d), file_count: count, kept })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'path'])
          .doUpdateSet({ file_count: sql`dirs.file_count + ${count}`, kept: sql`case when dirs.kept > ${kept} then dirs.kept else ${kept} end` }),
      )
      .execute();
  }
}

/** Takes `count` files off each folder of `chain`; folders left empty and not kept disappear (F2). */
export async function removeFromChain(trx: Q, projectId: string, chain: string[], count: number): Promise<void> {
  if (chain.length === 0) return;
  if (count > 0)
    await trx
      .updateTable('dirs')
      .set({ file_count: sql`file_count - ${count}` })
      .where('project_id', '=', projectId)
      .where('path', 'in', chain)
      .execute();
  await trx.deleteFrom('dirs').where('project_id', '=', projectId).where('path', 'in', chain).where('file_count', '<=', 0).where('kept', '=', 0).execute();
}

export async function subtreeTotals(trx: Q, projectId: string, folder: string): Promise<{ files: number; bytes: number }> {
  const r = await trx
    .selectFrom('files')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size').as('bytes')])
    .where('project_id', '=', projectId)
    .where(below('path', folder))
    .executeTakeFirstOrThrow();
  return { files: Number(r.n), bytes: Number(r.bytes ?? 0) };
}

/** Locks on a folder and below it end when the folder moves or goes (RFC 4918 §7.7: locks do not move). */
export async function releaseLocksBelow(trx: Q, projectId: string, path: string): Promise<void> {
  await trx
    .deleteFrom('dav_locks')
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('path', '=', path), below('path', path)]))
    .execute();
}
