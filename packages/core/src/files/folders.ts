import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { ancestorDirs, baseName, dirOf, isInside, normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { recordFolderInFeed, runFolderChangeHooks } from '../hooks.js';
import { moveTarget } from './move-file.js';
import { assertUnlockedIn } from './locks.js';
import { below, rebased } from './subtree-sql.js';
import { chargeUsage } from './commit-version.js';
import { lockPaths } from './path-locks.js';
import type { FolderEntry } from './list-files.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';

/**
 * Counts a folder change against an agent's change window, in the change's transaction (a refused change never
 * counts). The tool runner passes its call's window; every other door counts in the actor's own (A4).
 */
type CountChange = (trx: Q) => Promise<unknown>;

async function countChange(trx: Q, ctx: Ctx, count: CountChange | undefined): Promise<void> {
  if (count) await count(trx);
  else await countAgentChange(trx, ctx);
}

/**
 * Folders are real (F9, F10 and F13 as amended): a folder created on purpose exists while empty, survives a
 * restart and shows in listings and the tree; a folder moves and is deleted as a whole. Whole-folder changes
 * touch metadata only, in one transaction, with one statement per table whatever the number of files.
 */

async function folderRow(q: Q, projectId: string, path: string) {
  return q.selectFrom('dirs').select(['path', 'name', 'file_count', 'kept']).where('project_id', '=', projectId).where('path', '=', path).executeTakeFirst();
}

/** The first of `paths` that is a file, if any (a folder cannot sit at or under a file's path). */
async function fileAmong(q: Q, projectId: string, paths: string[]): Promise<string | undefined> {
  if (paths.length === 0) return undefined;
  const row = await q.selectFrom('files').select('path').where('project_id', '=', projectId).where('path', 'in', paths).executeTakeFirst();
  return row?.path;
}

function toEntry(r: { path: string; name: string; file_count: number | string }): FolderEntry {
  return { path: r.path, name: r.name, fileCount: Number(r.file_count) };
}

function folderPath(input: string, what: string): string {
  const path = normalizePath(input, 'folder');
  if (path === '') throw new StoaError('bad_request', `the root folder cannot be ${what}`);
  return path;
}

/**
 * A folder by path, or null when there is none (a file at that path is not a folder).
 *
 * @example
 * await statFolder(ctx, 'reports/2026') // { path: 'reports/2026', name: '2026', fileCount: 3 }
 */
export async function statFolder(ctx: Ctx, input: string): Promise<FolderEntry | null> {
  const path = normalizePath(input, 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  if (path === '')
    return {
      path: '',
      name: '',
      fileCount: Number(
        (
          await ctx.platform.db.kysely
            .selectFrom('files')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', ctx.project.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    };
  const row = await folderRow(ctx.platform.db.kysely, ctx.project.id, path);
  return row ? toEntry(row) : null;
}

/** Like statFolder, but a missing folder is not_found. */
export async function getFolder(ctx: Ctx, path: string): Promise<FolderEntry> {
  const f = await statFolder(ctx, path);
  if (!f) throw new StoaError('not_found', `folder "${normalizePath(path, 'folder')}" does not exist`);
  return f;
}

/**
 * Creates a folder, and its missing parents, so that it exists while empty. Fails with already_exists when a
 * folder or a file is at that path, and when a parent is a file.
 *
 * @example
 * await createFolder(ctx, { path: 'reports/2026' });
 */
export async function createFolder(ctx: Ctx, input: { path: string; countChange?: CountChange }): Promise<FolderEntry> {
  return tracedChange(
    ctx,
    'folder.create',
    { path: input.path },
    (c) => makeFolder(c, input),
    (f) => ({ path: f.path, text: `Created folder ${f.path}` }),
  );
}

async function makeFolder(ctx: Ctx, input: { path: string; countChange?: CountChange }): Promise<FolderEntry> {
  const path = folderPath(input.path, 'created');
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  const chain = [...ancestorDirs(path), path];
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [path]);
    const file = await fileAmong(trx, ctx.project.id, chain);
    if (file) throw new StoaError('already_exists', file === path ? `a file "${path}" already exists` : `"${file}" is a file, so it cannot hold a folder`);
    const existing = await folderRow(trx, ctx.project.id, path);
    if (existing) throw new StoaError('already_exists', `folder "${path}" already exists`);
    await assertUnlockedIn(trx, ctx, [{ path, member: true }]);
    await countChange(trx, ctx, input.countChange);
    // A kept folder keeps its parents too: the tree never shows a folder whose parent has vanished.
    for (const d of chain) {
      await trx
        .insertInto('dirs')
        .values({ project_id: ctx.project.id, path: d, parent: dirOf(d), name: baseName(d), file_count: 0, kept: 1 })
        .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ kept: 1 }))
        .execute();
    }
    await recordAudit(trx, ctx, { action: 'folder.create', path });
    return { path, name: baseName(path), fileCount: 0 };
  });
}

/** Adds `count` files (and keeps, when `kept`) to each folder of `chain`, creating the missing ones. */
async function addToChain(trx: Q, projectId: string, chain: string[], count: number, kept: number): Promise<void> {
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
async function removeFromChain(trx: Q, projectId: string, chain: string[], count: number): Promise<void> {
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

async function subtreeTotals(trx: Q, projectId: string, folder: string): Promise<{ files: number; bytes: number }> {
  const r = await trx
    .selectFrom('files')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size').as('bytes')])
    .where('project_id', '=', projectId)
    .where(below('path', folder))
    .executeTakeFirstOrThrow();
  return { files: Number(r.n), bytes: Number(r.bytes ?? 0) };
}

/**
 * Moves or renames a folder with everything in it: metadata only, one statement per table, one transaction.
 * Never overwrites: fails with already_exists when a file or folder is at the target. A target ending in "/"
 * means "into that folder, keeping the name". Agents need move rights on the folder and write rights on the
 * target, which covers everything below both.
 *
 * @example
 * await moveFolder(ctx, { from: 'drafts', to: 'archive/2026/' }) // → archive/2026/drafts
 */
export async function moveFolder(ctx: Ctx, input: { from: string; to: string; countChange?: CountChange }): Promise<FolderEntry> {
  return tracedChange(
    ctx,
    'folder.move',
    { from: input.from, to: input.to },
    (c) => renameFolder(c, input),
    (f) => ({ path: f.path, text: `Moved folder ${input.from} to ${f.path}` }),
  );
}

async function renameFolder(ctx: Ctx, input: { from: string; to: string; countChange?: CountChange }): Promise<FolderEntry> {
  const from = folderPath(input.from, 'moved');
  const to = moveTarget(from, input.to);
  assertCan(ctx.actor, 'file.move', { kind: 'file', path: from });
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: to });
  if (to === from) throw new StoaError('bad_request', 'source and target are the same folder');
  if (isInside(to, from)) throw new StoaError('bad_request', `a folder cannot be moved into itself ("${to}" is inside "${from}")`);
  const pid = ctx.project.id;
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [from, to]);
    const row = await folderRow(trx, pid, from);
    if (!row) {
      if (await fileAmong(trx, pid, [from])) throw new StoaError('bad_request', `"${from}" is a file, not a folder`);
      throw new StoaError('not_found', `folder "${from}" does not exist`);
    }
    if (await folderRow(trx, pid, to)) throw new StoaError('already_exists', `folder "${to}" already exists; nothing was overwritten`);
    const file = await fileAmong(trx, pid, [...ancestorDirs(to), to]);
    if (file)
      throw new StoaError(
        'already_exists',
        file === to ? `file "${to}" already exists; nothing was overwritten` : `"${file}" is a file, so it cannot hold a folder`,
      );
    // Every moved path must still be valid at its new place: depth (a file one level below each folder) and length.
    const folders = await trx.selectFrom('dirs').select('path').where('project_id', '=', pid).where(below('path', from)).execute();
    for (const d of [from, ...folders.map((f) => f.path)]) normalizePath(`${to}${d.slice(from.length)}/x`);
    const longest = await trx
      .selectFrom('files')
      .select('path')
      .where('project_id', '=', pid)
      .where(below('path', from))
      .orderBy(sql`length(path)`, 'desc')
      .limit(1)
      .executeTakeFirst();
    if (longest) normalizePath(to + longest.path.slice(from.length));
    await assertUnlockedIn(trx, ctx, [
      { path: from, member: true, subtree: true },
      { path: to, member: true },
    ]);
    await countChange(trx, ctx, input.countChange);
    const totals = await subtreeTotals(trx, pid, from);
    await trx
      .updateTable('files')
      .set({ path: rebased('path', from, to), dir: sql`case when dir = ${from} then ${to} else ${rebased('dir', from, to)} end` })
      .where('project_id', '=', pid)
      .where(below('path', from))
      .execute();
    await trx
      .updateTable('file_versions')
      .set({ path: rebased('path', from, to) })
      .where('project_id', '=', pid)
      .where(below('path', from))
      .execute();
    await trx
      .updateTable('dirs')
      .set({ path: rebased('path', from, to), parent: sql`case when parent = ${from} then ${to} else ${rebased('parent', from, to)} end` })
      .where('project_id', '=', pid)
      .where(below('path', from))
      .execute();
    await trx
      .updateTable('dirs')
      .set({ path: to, parent: dirOf(to), name: baseName(to) })
      .where('project_id', '=', pid)
      .where('path', '=', from)
      .execute();
    await removeFromChain(trx, pid, ancestorDirs(from), totals.files);
    await addToChain(trx, pid, ancestorDirs(to), totals.files, Number(row.kept));
    await releaseLocksBelow(trx, pid, from);
    const at = ctx.platform.clock().toISOString();
    await recordFolderInFeed(trx, { kind: 'moved', projectId: pid, from, to, at });
    await recordAudit(trx, ctx, { action: 'folder.move', path: to, from, to, size: totals.bytes, details: { files: totals.files } });
    await runFolderChangeHooks(trx, ctx, { kind: 'moved', projectId: pid, from, to, at });
    return { path: to, name: baseName(to), fileCount: totals.files };
  });
}

/**
 * Deletes a folder. Without `recursive` only an empty folder goes (else bad_request "not empty"); with it,
 * every file below goes too, with all versions, permanently (F13): one statement per table, space freed at
 * once, one audit entry.
 *
 * @example
 * await deleteFolder(ctx, { path: 'old', recursive: true }) // { path: 'old', files: 12, bytes: 3400 }
 */
export async function deleteFolder(
  ctx: Ctx,
  input: { path: string; recursive?: boolean; countChange?: CountChange },
): Promise<{ path: string; files: number; bytes: number }> {
  return tracedChange(
    ctx,
    'folder.delete',
    { path: input.path, recursive: input.recursive ?? false },
    (c) => removeFolder(c, input),
    (r) => ({ path: r.path, text: `Deleted folder ${r.path} (${r.files} files)` }),
  );
}

async function removeFolder(
  ctx: Ctx,
  input: { path: string; recursive?: boolean; countChange?: CountChange },
): Promise<{ path: string; files: number; bytes: number }> {
  const path = folderPath(input.path, 'deleted');
  assertCan(ctx.actor, 'file.delete', { kind: 'file', path });
  const pid = ctx.project.id;
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [path]);
    const row = await folderRow(trx, pid, path);
    if (!row) {
      if (await fileAmong(trx, pid, [path])) throw new StoaError('bad_request', `"${path}" is a file, not a folder`);
      throw new StoaError('not_found', `folder "${path}" does not exist`);
    }
    const totals = await subtreeTotals(trx, pid, path);
    if (!input.recursive) {
      const child = await trx.selectFrom('dirs').select('path').where('project_id', '=', pid).where('parent', '=', path).executeTakeFirst();
      if (totals.files > 0 || child) throw new StoaError('bad_request', `folder "${path}" is not empty; delete it with everything in it (recursive)`);
    }
    await assertUnlockedIn(trx, ctx, [{ path, member: true, subtree: true }]);
    await countChange(trx, ctx, input.countChange);
    const at = ctx.platform.clock().toISOString();
    await recordFolderInFeed(trx, { kind: 'deleted', projectId: pid, from: path, at });
    const ids = trx.selectFrom('files').select('id').where('project_id', '=', pid).where(below('path', path));
    await trx.deleteFrom('dav_props').where('project_id', '=', pid).where('file_id', 'in', ids).execute();
    await trx.deleteFrom('file_versions').where('project_id', '=', pid).where('file_id', 'in', ids).execute();
    await trx.deleteFrom('files').where('project_id', '=', pid).where(below('path', path)).execute();
    await trx
      .deleteFrom('dirs')
      .where('project_id', '=', pid)
      .where((eb) => eb.or([eb('path', '=', path), below('path', path)]))
      .execute();
    await removeFromChain(trx, pid, ancestorDirs(path), totals.files);
    await releaseLocksBelow(trx, pid, path);
    await recordAudit(trx, ctx, { action: 'folder.delete', path, size: totals.bytes, details: { files: totals.files } });
    await runFolderChangeHooks(trx, ctx, { kind: 'deleted', projectId: pid, from: path, at });
    // Last, as in commitVersion: the project's row is locked for one statement and the commit.
    await chargeUsage(trx, ctx, -totals.bytes);
    return { path, files: totals.files, bytes: totals.bytes };
  });
}

/** Locks on a folder and below it end when the folder moves or goes (RFC 4918 §7.7: locks do not move). */
export async function releaseLocksBelow(trx: Q, projectId: string, path: string): Promise<void> {
  await trx
    .deleteFrom('dav_locks')
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('path', '=', path), below('path', path)]))
    .execute();
}
