import { normalizePath, likeEscape } from '../paths.js';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { sql } from 'kysely';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';

export interface FolderEntry { path: string; name: string; fileCount: number }

/**
 * One page of a folder for people (SPEC F5): its subfolders and its files, ordered by name, with a cursor
 * (the last file name of the page). Folders are derived from paths (F2).
 *
 * @example
 * const page = await listFolder(ctx, { folder: 'reports', limit: 100 });
 */
export async function listFolder(ctx: Ctx, input: { folder?: string; cursor?: string | null; limit?: number }): Promise<{ folder: string; folders: FolderEntry[]; files: FileInfo[]; nextCursor: string | null; total: number }> {
  const folder = normalizePath(input.folder ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: folder });
  const db = ctx.platform.db.kysely;
  const limit = Math.min(Math.max(input.limit ?? 200, 1), ctx.platform.config.limits.uiMaxFiles);
  const folders = input.cursor
    ? []
    : (await db.selectFrom('dirs').select(['path', 'name', 'file_count']).where('project_id', '=', ctx.project.id).where('parent', '=', folder).orderBy('name').execute()).map((d) => ({ path: d.path, name: d.name, fileCount: Number(d.file_count) }));
  let q = db.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id).where('dir', '=', folder);
  if (input.cursor) q = q.where('name', '>', input.cursor);
  const rows = (await q.orderBy('name').limit(limit + 1).execute()) as FileRow[];
  const page = rows.slice(0, limit);
  const total = Number((await db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', ctx.project.id).where('dir', '=', folder).executeTakeFirstOrThrow()).n);
  return { folder, folders, files: page.map(toFileInfo), nextCursor: rows.length > limit ? page[page.length - 1]!.name : null, total };
}

/**
 * Every file under a folder, recursively, ordered by path, a page at a time (cursor = last path).
 * `within` limits the listing to a scope the caller may read (agents' read scope).
 */
export async function listFilesRecursive(ctx: Ctx, input: { prefix?: string; cursor?: string | null; limit?: number }): Promise<{ files: FileInfo[]; nextCursor: string | null }> {
  const prefix = normalizePath(input.prefix ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: prefix });
  const limit = Math.min(Math.max(input.limit ?? 1000, 1), 100_000);
  let q = ctx.platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id);
  if (prefix) q = q.where((eb) => eb.or([eb('path', '=', prefix), eb('path', 'like', sql<string>`${likeEscape(prefix) + '/%'} escape '\\'`)]));
  if (input.cursor) q = q.where('path', '>', input.cursor);
  const rows = (await q.orderBy('path').limit(limit + 1).execute()) as FileRow[];
  const page = rows.slice(0, limit);
  return { files: page.map(toFileInfo), nextCursor: rows.length > limit ? page[page.length - 1]!.path : null };
}

/** The folder tree (SPEC F5): every folder with its parent, for the tree view. */
export async function folderTree(ctx: Ctx): Promise<FolderEntry[]> {
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: '' });
  const rows = await ctx.platform.db.kysely.selectFrom('dirs').select(['path', 'name', 'file_count']).where('project_id', '=', ctx.project.id).orderBy('path').execute();
  return rows.map((d) => ({ path: d.path, name: d.name, fileCount: Number(d.file_count) }));
}

/**
 * Name search (SPEC F7): case-insensitive substring of the file name over the whole storage, results with
 * full paths, ordered by path.
 */
export async function findFiles(ctx: Ctx, input: { text: string; limit?: number; within?: string }): Promise<{ files: FileInfo[]; truncated: boolean }> {
  const within = normalizePath(input.within ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: within });
  const limit = Math.min(Math.max(input.limit ?? 1000, 1), ctx.platform.config.limits.uiMaxFiles);
  const needle = input.text.normalize('NFC').toLowerCase();
  let q = ctx.platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id);
  if (needle) q = q.where('name_lower', 'like', sql<string>`${'%' + likeEscape(needle) + '%'} escape '\\'`);
  if (within) q = q.where('path', 'like', sql<string>`${likeEscape(within) + '/%'} escape '\\'`);
  const rows = (await q.orderBy('path').limit(limit + 1).execute()) as FileRow[];
  return { files: rows.slice(0, limit).map(toFileInfo), truncated: rows.length > limit };
}
