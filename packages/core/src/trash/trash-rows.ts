import { sql } from 'kysely';
import { attributionOf } from '../actors.js';
import { newId } from '../ids.js';
import { baseName } from '../paths.js';
import type { Ctx, Q } from '../platform.js';
import { below } from '../files/subtree-sql.js';

/**
 * The move of deleted rows into the volume's trash (issue 29), in the delete's own transaction: the file mutator
 * calls it just before it removes the live rows, so a delete is never half in the trash. The rows are copied
 * column for column (`insert … select`), whatever the number of files, so a folder's delete stays one statement
 * per table.
 */

const FILE_COLUMNS = [
  'id',
  'project_id',
  'path',
  'dir',
  'name',
  'name_lower',
  'size',
  'mime',
  'sha256',
  'blob_key',
  'version',
  'permissions',
  'created_by_kind',
  'created_by_id',
  'created_by_label',
  'created_by_meta',
  'created_at',
  'modified_at',
  'modified_by_kind',
  'modified_by_id',
  'modified_by_label',
  'metadata',
] as const;

const VERSION_COLUMNS = [
  'id',
  'file_id',
  'project_id',
  'path',
  'version',
  'size',
  'mime',
  'sha256',
  'blob_key',
  'author_kind',
  'author_id',
  'author_label',
  'author_meta',
  'created_at',
  'metadata',
] as const;

/** Which live files go: one by its ID, or every file below a folder. */
type Subject = { fileId: string } | { folder: string };

/**
 * Copies a file (or every file below a folder) with all its versions into a new trash entry and returns the
 * entry's ID. `size` is what the delete frees from the quota (the current versions), charged again at a restore.
 */
export async function moveToTrash(
  trx: Q,
  ctx: Ctx,
  input: { kind: 'file' | 'folder'; path: string; size: number; files: number; subject: Subject; keptDirs?: string[] },
): Promise<string> {
  const id = newId('trs');
  const pid = ctx.project.id;
  const entry = sql<string>`cast(${id} as text)`.as('entry_id');
  const files = trx.selectFrom('files').where('project_id', '=', pid);
  const which = 'fileId' in input.subject ? files.where('id', '=', input.subject.fileId) : files.where(below('path', input.subject.folder));
  await trx
    .insertInto('trash_files')
    .columns([...FILE_COLUMNS, 'entry_id'])
    .expression(which.select([...FILE_COLUMNS, entry]))
    .execute();
  const ids = trx.selectFrom('trash_files').select('id').where('entry_id', '=', id);
  await trx
    .insertInto('trash_versions')
    .columns([...VERSION_COLUMNS, 'entry_id'])
    .expression(
      trx
        .selectFrom('file_versions')
        .select([...VERSION_COLUMNS, entry])
        .where('project_id', '=', pid)
        .where('file_id', 'in', ids),
    )
    .execute();
  const stored = await trx
    .selectFrom('trash_versions')
    .select((eb) => eb.fn.sum('size').as('bytes'))
    .where('entry_id', '=', id)
    .executeTakeFirstOrThrow();
  const by = attributionOf(ctx.actor);
  await trx
    .insertInto('trash_entries')
    .values({
      id,
      project_id: pid,
      kind: input.kind,
      path: input.path,
      name: baseName(input.path),
      size: input.size,
      stored_bytes: Math.max(Number(stored.bytes ?? 0), input.size),
      files: input.files,
      kept_dirs: JSON.stringify(input.keptDirs ?? []),
      deleted_at: ctx.platform.clock().toISOString(),
      deleted_by_kind: by.kind,
      deleted_by_id: by.id,
      deleted_by_label: by.label,
      conversation_id: ctx.actor.kind === 'agent' ? ctx.actor.conversationId : null,
    })
    .execute();
  return id;
}

/**
 * Removes a trash entry's rows for good; the sweep then collects the blobs nothing else references. The entry's
 * row goes first, by one conditional statement: of a purge, an expiry and a restore of one entry at the same
 * moment exactly one finds it (the others wait for its row lock on PostgreSQL, then find nothing).
 */
export async function dropEntryRows(trx: Q, projectId: string, entryId: string): Promise<boolean> {
  const r = await trx.deleteFrom('trash_entries').where('id', '=', entryId).where('project_id', '=', projectId).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await dropContents(trx, entryId);
  return true;
}

/** The file and version rows of an entry whose row is already gone (purged, or restored into the live tables). */
export async function dropContents(trx: Q, entryId: string): Promise<void> {
  await trx.deleteFrom('trash_versions').where('entry_id', '=', entryId).execute();
  await trx.deleteFrom('trash_files').where('entry_id', '=', entryId).execute();
}

/** How a trash entry is shown: who deleted it, when, from where, and what it holds. */
export interface TrashItem {
  id: string;
  kind: 'file' | 'folder';
  /** Where it was when it was deleted. */
  path: string;
  name: string;
  /** Bytes of its current versions (what a restore charges to the quota). */
  size: number;
  files: number;
  deletedAt: string;
  deletedBy: { kind: string; id: string | null; label: string | null };
  /** When it goes for good unless restored first (STOA_TRASH_DAYS after the delete). */
  expiresAt: string;
}

export function toTrashItem(
  r: { id: string; kind: string; path: string; name: string; size: number | string; files: number | string; deleted_at: string } & {
    deleted_by_kind: string;
    deleted_by_id: string | null;
    deleted_by_label: string | null;
  },
  days: number,
): TrashItem {
  return {
    id: r.id,
    kind: r.kind === 'folder' ? 'folder' : 'file',
    path: r.path,
    name: r.name,
    size: Number(r.size),
    files: Number(r.files),
    deletedAt: r.deleted_at,
    deletedBy: { kind: r.deleted_by_kind, id: r.deleted_by_id, label: r.deleted_by_label },
    expiresAt: new Date(Date.parse(r.deleted_at) + days * 86_400_000).toISOString(),
  };
}
