import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { runFileChangeHooks } from '../hooks.js';
import { removeFromDirs } from './dirs.js';
import { lockFileRow } from './commit-version.js';
import { chargeUsage } from './usage-counter.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';
import { assertUnlockedIn } from './locks.js';
import { moveToTrash } from '../trash/trash-rows.js';

/**
 * Deletes one file: it goes with all its versions to the volume's trash (issue 29), and the space is freed at once
 * (F13). It is restorable from there until the trash is purged; its blobs stay until then. Folders go with
 * deleteFolder.
 *
 * @example
 * await deleteFile(ctx, { path: 'old/report.pdf' });
 */
export async function deleteFile(ctx: Ctx, input: { path: string; expectedVersion?: number | null }): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.delete',
    { path: input.path },
    (c) => removeFile(c, input),
    (f) => ({ path: f.path, text: `Deleted ${f.path} (it was at version ${f.version})` }),
  );
}

async function removeFile(ctx: Ctx, input: { path: string; expectedVersion?: number | null }): Promise<FileInfo> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.delete', { kind: 'file', path });
  return inTx(ctx.platform, async (trx) => {
    const row = await lockFileRow(trx, ctx, path);
    if (!row) {
      const isFolder = await trx.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).where('path', '=', path).executeTakeFirst();
      if (isFolder) throw new StoaError('bad_request', `"${path}" is a folder; delete it as a folder`);
      throw new StoaError('not_found', `file "${path}" does not exist`);
    }
    if (input.expectedVersion != null && input.expectedVersion !== row.version) {
      throw new StoaError('version_conflict', `"${path}" is at version ${row.version}, not ${input.expectedVersion}`, { currentVersion: row.version });
    }
    await assertUnlockedIn(trx, ctx, [{ path, member: true }]);
    await countAgentChange(trx, ctx);
    await trashFileRow(trx, ctx, row);
    return toFileInfo(row);
  });
}

/**
 * Moves a file with its versions to the trash and removes it from the live tables, in the caller's transaction:
 * what every delete of a file does, whatever the door (HTTP, WebDAV, the tools). Returns the trash entry's ID.
 */
export async function trashFileRow(trx: Q, ctx: Ctx, row: FileRow, opts: { audit?: boolean } = {}): Promise<string> {
  const trash = await moveToTrash(trx, ctx, { kind: 'file', path: row.path, size: Number(row.size), files: 1, subject: { fileId: row.id } });
  await removeFileRow(trx, ctx, row, { ...opts, details: { trash } });
  return trash;
}

/**
 * Removes a file's row and versions in the caller's transaction: its dead properties and locks, usage freed,
 * folder index, audit, index hooks. The one clean-up of a deleted file, whatever the door (issue 26). Agent
 * deletes pass `audit: false`: they are in the conversation trace (F15).
 */
export async function removeFileRow(trx: Q, ctx: Ctx, row: FileRow, opts: { audit?: boolean; details?: Record<string, unknown> } = {}): Promise<void> {
  await trx.deleteFrom('dav_props').where('file_id', '=', row.id).execute();
  await trx.deleteFrom('dav_locks').where('project_id', '=', ctx.project.id).where('path', '=', row.path).execute();
  await trx.deleteFrom('file_versions').where('file_id', '=', row.id).execute();
  await trx.deleteFrom('files').where('id', '=', row.id).execute();
  await removeFromDirs(trx, ctx.project.id, row.path);
  if (opts.audit !== false)
    await recordAudit(trx, ctx, { action: 'file.delete', path: row.path, size: Number(row.size), ...(opts.details ? { details: opts.details } : {}) });
  await runFileChangeHooks(trx, ctx, {
    kind: 'deleted',
    projectId: ctx.project.id,
    fileId: row.id,
    path: row.path,
    mime: row.mime,
    size: Number(row.size),
    version: row.version,
    at: ctx.platform.clock().toISOString(),
  });
  // Last, as in commitVersion: the project's row is locked for one statement and the commit.
  await chargeUsage(trx, ctx, -Number(row.size));
}
