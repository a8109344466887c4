import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { ancestorDirs, baseName, dirOf, isInside, normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { recordFolderInFeed, runFolderChangeHooks } from '../hooks.js';
import { moveTarget } from './move-file.js';
import { assertUnlockedIn } from './locks.js';
import { below, rebased } from './subtree-sql.js';
import type { FolderEntry } from './list-files.js';
import { tracedChange } from '../operations/agent-gate.js';
import { lockPaths } from './path-locks.js';
import {
  addToChain,
  countChange,
  fileAmong,
  folderPath,
  folderRow,
  releaseLocksBelow,
  removeFromChain,
  subtreeTotals,
  type CountChange,
} from './folder-index.js';

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
