import { StoaError } from '@stoa/contract';
import { attributionOf, createdByTag, type Attribution } from '../actors.js';
import type { WindowKey } from '../tools/write-window.js';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { commitVersion } from './commit-version.js';
import { assertAgentWriteSize, countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { findFileRow, statFile } from './read-file.js';
import type { FileInfo } from './file-info.js';
import { withWriteRetry } from './write-retry.js';
import { assertUnlockedIn } from './locks.js';

export interface VersionInfo {
  version: number;
  size: number;
  modified: string;
  /** Who saved it: "" for people is not enough here, so the author's name (or "agent: <name>"). */
  author: string;
  authorDetail: { kind: string; id: string | null; label: string | null; meta: Record<string, unknown> | null };
  sha256: string;
  current: boolean;
}

/**
 * Versions of a file, newest first (X8, B3; `files versions --json`).
 *
 * @example
 * const versions = await listVersions(ctx, 'notes.md');
 */
export async function listVersions(ctx: Ctx, rawPath: string): Promise<VersionInfo[]> {
  const info = await statFile(ctx, rawPath);
  const rows = await ctx.platform.db.kysely.selectFrom('file_versions').selectAll().where('file_id', '=', info.id).orderBy('version', 'desc').execute();
  return rows.map((r) => ({
    version: r.version,
    size: Number(r.size),
    modified: r.created_at,
    author: r.author_kind === 'user' ? (r.author_label ?? '') : createdByTag(r.author_kind, r.author_label),
    authorDetail: { kind: r.author_kind, id: r.author_id, label: r.author_label, meta: r.author_meta ? JSON.parse(r.author_meta) : null },
    sha256: r.sha256,
    current: r.version === info.version,
  }));
}

/**
 * Restores an earlier version as a new version (the history is kept, nothing is rewritten).
 */
export async function restoreVersion(ctx: Ctx, input: { path: string; version: number; expectedVersion?: number | null }): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.restore',
    { path: input.path, version: input.version },
    async (c) => (await restoreAsNewVersion(c, input)).file,
    (f) => ({ path: f.path, version: f.version, text: `Restored version ${input.version} of ${f.path} as version ${f.version}` }),
  );
}

/**
 * The restore itself, for a caller that traces it (restoreVersion, the restore_version tool). `by` is a tool
 * call's attribution and write window (a runtime acting with a member's token counts its changes too); absent,
 * the actor's own. Returns the new version and, for an agent, its window's count.
 */
export async function restoreAsNewVersion(
  ctx: Ctx,
  input: { path: string; version: number; expectedVersion?: number | null },
  by?: { attribution: Attribution; window: WindowKey },
): Promise<{ file: FileInfo; changes: { used: number; max: number } | null }> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  if (!Number.isInteger(input.version) || input.version < 1) throw new StoaError('bad_request', 'version must be a positive integer');
  const row = await findFileRow(ctx, path);
  if (!row) throw new StoaError('not_found', `file "${path}" does not exist`);
  const v = await ctx.platform.db.kysely
    .selectFrom('file_versions')
    .selectAll()
    .where('file_id', '=', row.id)
    .where('version', '=', input.version)
    .executeTakeFirst();
  if (!v) throw new StoaError('not_found', `version ${input.version} of "${path}" does not exist`);
  assertAgentWriteSize(ctx, Number(v.size));
  return withWriteRetry(() =>
    inTx(ctx.platform, async (trx) => {
      await assertUnlockedIn(trx, ctx, [{ path }]);
      const changes = await countAgentChange(trx, ctx, by?.window);
      const r = await commitVersion(trx, ctx, {
        path,
        blob: { key: v.blob_key, size: Number(v.size), sha256: v.sha256 },
        mime: v.mime,
        attribution: by?.attribution ?? attributionOf(ctx.actor),
        mode: 'replace',
        expectedVersion: input.expectedVersion,
        auditAction: 'file.restore',
      });
      return { file: r.file, changes };
    }),
  );
}
