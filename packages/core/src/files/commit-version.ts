import { StoaError } from '@stoa/contract';
import type { PutResult } from '@stoa/blob';
import type { FileVersionsTable } from '@stoa/db';
import type { Selectable } from 'kysely';
import type { Attribution } from '../actors.js';
import { newOrderedId } from '../ids.js';
import { baseName, dirOf } from '../paths.js';
import type { Ctx, Q } from '../platform.js';
import { recordAudit } from '../audit/audit.js';
import { runFileChangeHooks } from '../hooks.js';
import { addToDirs } from './dirs.js';
import { lockPaths } from './path-locks.js';
import { chargeUsage } from './usage-counter.js';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';
import { pruneVersions } from './prune-versions.js';
import { isTextMime } from './mime.js';
import { indexableText } from '../text-rules.js';
import { isLockNull } from './lock-null.js';
import { hotQuery } from '../hot-query.js';

/** Text files up to this size hand their text to the index hooks (search over file contents). */
export const INDEX_TEXT_BYTES = 1_048_576;

export interface CommitInput {
  path: string;
  blob: PutResult;
  mime: string;
  attribution: Attribution;
  /** 'create' fails if the file exists; 'replace' creates or replaces. */
  mode: 'create' | 'replace';
  /** Optimistic concurrency (B2): the version the writer based its change on. */
  expectedVersion?: number | null;
  permissions?: string;
  auditAction?: string | null;
  /** Text of the new content when it is a small text file, for the search index hooks. */
  text?: string;
  /** Bytes already reserved for this write (direct uploads): released as the write is counted. */
  reservedBytes?: number;
  /** Metadata of the new version (R5), or null: it belongs to the version, so a version without it clears it. */
  metadata?: Record<string, string> | null;
  /** The path's row as the caller already read and locked it in this transaction (lockFileRow): not read again. */
  locked?: { row: FileRow | undefined };
  /**
   * The blob's bytes, when the caller still holds them: should the sweeper have collected identical old bytes
   * between the caller's put and this commit, they are stored again instead of the write being refused.
   */
  bytes?: Buffer;
}

/**
 * Reads the current row of a path, locking it on PostgreSQL so concurrent writers of one file queue up — also
 * while the file does not exist yet — and no folder above it moves or goes meanwhile (see path-locks.ts).
 */
export async function lockFileRow(trx: Q, ctx: Ctx, path: string): Promise<FileRow | undefined> {
  await lockPaths(trx, ctx, [path]);
  const [row] = await fileRowForUpdate(trx, { project: ctx.project.id, path }, ctx.platform.db.dialect === 'postgres' ? 1 : 0);
  return row as FileRow | undefined;
}

/** Every write reads its file's row so (shape 1: locked, on PostgreSQL): built once (issue 30). */
const fileRowForUpdate = hotQuery((db, a: { project: string; path: string }, locked) => {
  const q = db.selectFrom('files').selectAll().where('project_id', '=', a.project).where('path', '=', a.path);
  return locked ? q.forUpdate() : q;
});

/** Touches a blob's row (its sweeper grace starts again), making it when it is new. */
const touchBlob = hotQuery((db, a: { key: string; size: number; now: string }) =>
  db
    .insertInto('blobs')
    .values({ key: a.key, size: a.size, created_at: a.now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ created_at: a.now })),
);

/** A new file's row. */
const insertFile = hotQuery((db, a: FileRow) =>
  db.insertInto('files').values({
    id: a.id,
    project_id: a.project_id,
    path: a.path,
    dir: a.dir,
    name: a.name,
    name_lower: a.name_lower,
    size: a.size,
    mime: a.mime,
    sha256: a.sha256,
    blob_key: a.blob_key,
    version: a.version,
    permissions: a.permissions,
    created_by_kind: a.created_by_kind,
    created_by_id: a.created_by_id,
    created_by_label: a.created_by_label,
    created_by_meta: a.created_by_meta,
    created_at: a.created_at,
    modified_at: a.modified_at,
    modified_by_kind: a.modified_by_kind,
    modified_by_id: a.modified_by_id,
    modified_by_label: a.modified_by_label,
    metadata: a.metadata,
  }),
);

/** A version row whole: every column given, so the prebuilt insert always has one shape. */
type VersionRow = Selectable<FileVersionsTable>;

/** Every write's version row. */
const insertVersion = hotQuery((db, a: VersionRow) =>
  db.insertInto('file_versions').values({
    id: a.id,
    file_id: a.file_id,
    project_id: a.project_id,
    path: a.path,
    version: a.version,
    size: a.size,
    mime: a.mime,
    sha256: a.sha256,
    blob_key: a.blob_key,
    author_kind: a.author_kind,
    author_id: a.author_id,
    author_label: a.author_label,
    author_meta: a.author_meta,
    created_at: a.created_at,
    metadata: a.metadata,
  }),
);

/** Refuses (`version_conflict`) unless a file is at `expected` (0: it does not exist). */
export function assertVersion(path: string, current: number, expected: number): void {
  if (current !== expected) {
    throw new StoaError('version_conflict', `"${path}" is at version ${current}, not ${expected}; read it again and retry`, { currentVersion: current });
  }
}

/**
 * Makes a stored blob the new current version of a path, in the caller's transaction: file row, version row,
 * folder index, usage counter, retention, audit entry, hooks and the outbox row of the search index commit
 * together or not at all (the index itself is written right after the commit, outbox/drain.ts).
 */
export async function commitVersion(trx: Q, ctx: Ctx, input: CommitInput): Promise<{ file: FileInfo; created: boolean; previousVersion: number | null }> {
  const now = ctx.platform.clock().toISOString();
  const existing = input.locked ? input.locked.row : await lockFileRow(trx, ctx, input.path);
  if (input.expectedVersion !== undefined && input.expectedVersion !== null) assertVersion(input.path, existing?.version ?? 0, input.expectedVersion);
  if (existing && input.mode === 'create') throw new StoaError('already_exists', `file "${input.path}" already exists`);
  // Touch the blob's row (its sweeper grace starts again), then check the bytes: a sweeper deleting identical
  // old bytes holds this row's lock while it removes them, so after the touch the check tells the truth.
  await touchBlob(trx, { key: input.blob.key, size: input.blob.size, now });
  if (!(await ctx.platform.blobs.stat(input.blob.key))) {
    if (!input.bytes) throw new StoaError('unavailable', 'the stored content was just collected as unused; please retry');
    // The row is touched, so the sweeper leaves what is put now (the same key: the same bytes).
    await ctx.platform.blobs.put(input.bytes);
  }
  const a = input.attribution;
  const meta = a.meta ? JSON.stringify(a.meta) : null;
  const metadata = input.metadata ? JSON.stringify(input.metadata) : null;
  let row: FileRow;
  // The empty placeholder of a WebDAV lock is filled, not followed: its version 1 becomes this content.
  const fills = existing !== undefined && input.mode === 'replace' && isLockNull(existing);
  if (fills) await trx.deleteFrom('file_versions').where('file_id', '=', existing.id).where('version', '=', 1).execute();
  if (existing) {
    const changes = {
      size: input.blob.size,
      mime: input.mime,
      sha256: input.blob.sha256,
      blob_key: input.blob.key,
      version: fills ? 1 : existing.version + 1,
      modified_at: now,
      modified_by_kind: a.kind,
      modified_by_id: a.id,
      modified_by_label: a.label,
      permissions: input.permissions ?? existing.permissions,
      metadata,
    };
    await trx.updateTable('files').set(changes).where('id', '=', existing.id).execute();
    row = { ...existing, ...changes };
  } else {
    row = {
      id: newOrderedId('fil'),
      project_id: ctx.project.id,
      path: input.path,
      dir: dirOf(input.path),
      name: baseName(input.path),
      name_lower: baseName(input.path).toLowerCase(),
      size: input.blob.size,
      mime: input.mime,
      sha256: input.blob.sha256,
      blob_key: input.blob.key,
      version: 1,
      permissions: input.permissions ?? '644',
      created_by_kind: a.kind,
      created_by_id: a.id,
      created_by_label: a.label,
      created_by_meta: meta,
      created_at: now,
      modified_at: now,
      modified_by_kind: a.kind,
      modified_by_id: a.id,
      modified_by_label: a.label,
      metadata,
    };
    await insertFile(trx, row);
    await addToDirs(trx, ctx.project.id, input.path);
  }
  await insertVersion(trx, {
    id: newOrderedId('ver'),
    file_id: row.id,
    project_id: ctx.project.id,
    path: input.path,
    version: row.version,
    size: input.blob.size,
    mime: input.mime,
    sha256: input.blob.sha256,
    blob_key: input.blob.key,
    author_kind: a.kind,
    author_id: a.id,
    author_label: a.label,
    author_meta: meta,
    created_at: now,
    metadata,
  });
  await pruneVersions(trx, ctx, row.id, row.version);
  if (input.auditAction !== null)
    await recordAudit(trx, ctx, { action: input.auditAction ?? 'file.upload', path: input.path, size: input.blob.size, details: { version: row.version } });
  // The text goes to the outbox's drainer as a hint; writers that streamed their bytes did not hold it, and the
  // drainer reads the blob after the commit instead of this transaction reading it back.
  const text = input.text !== undefined && isTextMime(input.mime) && input.blob.size <= INDEX_TEXT_BYTES ? indexableText(input.text) : undefined;
  await runFileChangeHooks(trx, ctx, {
    kind: 'written',
    projectId: ctx.project.id,
    fileId: row.id,
    path: input.path,
    mime: input.mime,
    size: input.blob.size,
    version: row.version,
    text,
    previous: existing ? { mime: existing.mime, size: Number(existing.size) } : undefined,
    ...(existing ? {} : { fresh: true }),
    at: now,
  });
  // Last: the project's row is every writer's shared counter, so its lock is held for one statement and the
  // commit, not across the statements and storage calls above (the quota check still decides the whole).
  await chargeUsage(trx, ctx, input.blob.size - Number(existing?.size ?? 0), input.reservedBytes ?? 0);
  return { file: toFileInfo(row), created: !existing, previousVersion: fills ? null : (existing?.version ?? null) };
}
