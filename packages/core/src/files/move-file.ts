import { StoaError } from '@stoa/contract';
import { attributionOf } from '../actors.js';
import { baseName, dirOf, normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { runFileChangeHooks } from '../hooks.js';
import { addToDirs, removeFromDirs } from './dirs.js';
import { lockFileRow } from './commit-version.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { toFileInfo, type FileInfo } from './file-info.js';
import { mimeForPath } from './mime.js';
import { assertUnlockedIn } from './locks.js';
import { lockPaths } from './path-locks.js';

/**
 * Resolves the target of a move (F10): a path ending in `/` (or the empty root) means "into that folder,
 * keeping the name".
 */
export function moveTarget(from: string, rawTo: string): string {
  if (rawTo === '' || rawTo === '/' || rawTo.endsWith('/')) {
    const folder = normalizePath(rawTo, 'folder');
    return folder === '' ? baseName(from) : `${folder}/${baseName(from)}`;
  }
  return normalizePath(rawTo);
}

/**
 * Renames or moves one file by changing its row: instant for any size. Fails with already_exists if a file is
 * at the target; nothing is overwritten. Folders move with moveFolder.
 *
 * @example
 * await moveFile(ctx, { from: 'draft.md', to: 'reports/2026/' }) // → reports/2026/draft.md
 */
export async function moveFile(
  ctx: Ctx,
  input: { from: string; to: string; expectedVersion?: number | null; beforeMove?: (trx: Q) => Promise<unknown> },
): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.move',
    { from: input.from, to: input.to },
    (c) => renameFile(c, input),
    (f) => ({ path: f.path, version: f.version, text: `Moved ${input.from} to ${f.path}` }),
  );
}

async function renameFile(
  ctx: Ctx,
  input: { from: string; to: string; expectedVersion?: number | null; beforeMove?: (trx: Q) => Promise<unknown> },
): Promise<FileInfo> {
  const from = normalizePath(input.from);
  const to = moveTarget(from, input.to);
  assertCan(ctx.actor, 'file.move', { kind: 'file', path: from });
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: to });
  const now = ctx.platform.clock().toISOString();
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [from, to]);
    const row = await lockFileRow(trx, ctx, from);
    if (!row) {
      const isFolder = await trx.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).where('path', '=', from).executeTakeFirst();
      if (isFolder) throw new StoaError('bad_request', `"${from}" is a folder; move it as a folder`);
      throw new StoaError('not_found', `file "${from}" does not exist`);
    }
    if (input.expectedVersion != null && input.expectedVersion !== row.version) {
      throw new StoaError('version_conflict', `"${from}" is at version ${row.version}, not ${input.expectedVersion}`, { currentVersion: row.version });
    }
    if (to === from) return toFileInfo(row);
    const target = await trx.selectFrom('files').select('id').where('project_id', '=', ctx.project.id).where('path', '=', to).executeTakeFirst();
    if (target) throw new StoaError('already_exists', `file "${to}" already exists; nothing was overwritten`);
    // The move counts against an agent's change limit in this transaction, so a refused move never counts; the tool
    // runner passes its own counting (its call's window) instead.
    await assertUnlockedIn(trx, ctx, [
      { path: from, member: true },
      { path: to, member: true },
    ]);
    if (input.beforeMove) await input.beforeMove(trx);
    else await countAgentChange(trx, ctx);
    const mime = mimeForPath(to);
    const a = attributionOf(ctx.actor);
    const changes = {
      path: to,
      dir: dirOf(to),
      name: baseName(to),
      name_lower: baseName(to).toLowerCase(),
      mime,
      modified_at: now,
      modified_by_kind: a.kind,
      modified_by_id: a.id,
      modified_by_label: a.label,
    };
    await trx.updateTable('files').set(changes).where('id', '=', row.id).execute();
    await trx.updateTable('file_versions').set({ path: to }).where('file_id', '=', row.id).execute();
    await removeFromDirs(trx, ctx.project.id, from);
    await trx.deleteFrom('dav_locks').where('project_id', '=', ctx.project.id).where('path', '=', from).execute();
    await addToDirs(trx, ctx.project.id, to);
    await recordAudit(trx, ctx, { action: 'file.move', path: to, from, to, size: Number(row.size) });
    await runFileChangeHooks(trx, ctx, {
      kind: 'moved',
      projectId: ctx.project.id,
      fileId: row.id,
      path: to,
      fromPath: from,
      mime,
      size: Number(row.size),
      version: row.version,
      previous: { mime: row.mime, size: Number(row.size) },
      at: now,
    });
    return toFileInfo({ ...row, ...changes });
  });
}
