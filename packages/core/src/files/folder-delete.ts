import { StoaError } from '@stoa/contract';
import { ancestorDirs } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { recordFolderInFeed, runFolderChangeHooks } from '../hooks.js';
import { assertUnlockedIn } from './locks.js';
import { below } from './subtree-sql.js';
import { tracedChange } from '../operations/agent-gate.js';
import { chargeUsage } from './usage-counter.js';
import { lockPaths } from './path-locks.js';
import { moveToTrash } from '../trash/trash-rows.js';
import { countChange, fileAmong, folderPath, folderRow, releaseLocksBelow, removeFromChain, subtreeTotals, type CountChange } from './folder-index.js';

/**
 * Deletes a folder. Without `recursive` only an empty folder goes (else bad_request "not empty"); with it,
 * every file below goes too, with all versions, to the volume's trash as one entry (issue 29): one statement per
 * table, space freed at once (F13), one audit entry. A folder with no file below it holds nothing to restore
 * and goes outright (WebDAV's folder moves end that way too).
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
    let trash: string | null = null;
    if (totals.files > 0) {
      const kept = await trx
        .selectFrom('dirs')
        .select('path')
        .where('project_id', '=', pid)
        .where((eb) => eb.or([eb('path', '=', path), below('path', path)]))
        .where('kept', '=', 1)
        .execute();
      const keptDirs = kept.map((d) => d.path.slice(path.length + 1));
      trash = await moveToTrash(trx, ctx, { kind: 'folder', path, size: totals.bytes, files: totals.files, subject: { folder: path }, keptDirs });
    }
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
    await recordAudit(trx, ctx, { action: 'folder.delete', path, size: totals.bytes, details: { files: totals.files, ...(trash ? { trash } : {}) } });
    await runFolderChangeHooks(trx, ctx, { kind: 'deleted', projectId: pid, from: path, at });
    // Last, as in commitVersion: the project's row is locked for one statement and the commit.
    await chargeUsage(trx, ctx, -totals.bytes);
    return { path, files: totals.files, bytes: totals.bytes };
  });
}
