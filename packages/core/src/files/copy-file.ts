import { StoaError } from '@stoa/contract';
import { attributionOf } from '../actors.js';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { commitVersion, lockFileRow } from './commit-version.js';
import { removeFileRow } from './delete-file.js';
import { moveTarget } from './move-file.js';
import { mimeForPath } from './mime.js';
import type { FileInfo } from './file-info.js';
import { withWriteRetry } from './write-retry.js';
import { assertAgentWriteSize, countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { assertUnlockedIn } from './locks.js';
import { lockPaths } from './path-locks.js';

/**
 * Copies a file without copying bytes: the target's new version points at the source's blob. With
 * `overwrite`, an existing target gets a new version (its history is kept); without, it fails with
 * already_exists.
 *
 * @example
 * await copyFile(ctx, { from: 'templates/report.md', to: 'reports/2026/' });
 */
export async function copyFile(ctx: Ctx, input: { from: string; to: string; overwrite?: boolean }): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.copy',
    { from: input.from, to: input.to },
    (c) => duplicateFile(c, input),
    (f) => ({ path: f.path, version: f.version, text: `Copied ${input.from} to ${f.path}; version ${f.version}` }),
  );
}

async function duplicateFile(ctx: Ctx, input: { from: string; to: string; overwrite?: boolean }): Promise<FileInfo> {
  const from = normalizePath(input.from);
  const to = moveTarget(from, input.to);
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: from });
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: to });
  if (to === from) throw new StoaError('bad_request', 'source and target are the same file');
  return withWriteRetry(() =>
    inTx(ctx.platform, async (trx) => {
      await lockPaths(trx, ctx, [from, to]);
      const src = await lockFileRow(trx, ctx, from);
      if (!src) throw new StoaError('not_found', `file "${from}" does not exist`);
      assertAgentWriteSize(ctx, Number(src.size));
      await assertUnlockedIn(trx, ctx, [{ path: to, member: true }]);
      await countAgentChange(trx, ctx);
      const r = await commitVersion(trx, ctx, {
        path: to,
        blob: { key: src.blob_key, size: Number(src.size), sha256: src.sha256 },
        mime: mimeForPath(to),
        attribution: attributionOf(ctx.actor),
        mode: input.overwrite ? 'replace' : 'create',
        auditAction: 'file.upload',
      });
      return r.file;
    }),
  );
}

/**
 * Moves a file onto an existing one in one transaction: the target keeps its history and gets the source's
 * content as a new version; the source is removed. This is how editors that save through "write a temp file,
 * rename it over the original" keep working over WebDAV without anything being lost.
 */
export async function moveOver(ctx: Ctx, input: { from: string; to: string }): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.move',
    { from: input.from, to: input.to },
    (c) => replaceByMove(c, input),
    (f) => ({ path: f.path, version: f.version, text: `Moved ${input.from} over ${f.path}; version ${f.version}` }),
  );
}

async function replaceByMove(ctx: Ctx, input: { from: string; to: string }): Promise<FileInfo> {
  const from = normalizePath(input.from);
  const to = moveTarget(from, input.to);
  assertCan(ctx.actor, 'file.move', { kind: 'file', path: from });
  assertCan(ctx.actor, 'file.delete', { kind: 'file', path: from });
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: to });
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [from, to]);
    const src = await lockFileRow(trx, ctx, from);
    if (!src) throw new StoaError('not_found', `file "${from}" does not exist`);
    await assertUnlockedIn(trx, ctx, [
      { path: from, member: true },
      { path: to, member: true },
    ]);
    await countAgentChange(trx, ctx);
    // Free the source first so the quota sees the net change, then write the target.
    await removeFileRow(trx, ctx, src);
    const r = await commitVersion(trx, ctx, {
      path: to,
      blob: { key: src.blob_key, size: Number(src.size), sha256: src.sha256 },
      mime: mimeForPath(to),
      attribution: attributionOf(ctx.actor),
      mode: 'replace',
      auditAction: 'file.move',
    });
    return r.file;
  });
}
