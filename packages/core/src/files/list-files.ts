import { below } from './subtree-sql.js';
import { directFileCount } from './dirs.js';
import { normalizePath, likeEscape } from '../paths.js';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { sql } from 'kysely';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';
import { openCursor, sealCursor } from './change-cursor.js';
import { StoaError } from '@stoa/contract';
import { planNameSearch, type NamePlan } from './name-probe.js';

export interface FolderEntry {
  path: string;
  name: string;
  fileCount: number;
}

/** What a folder page says of each file: `list` leaves out the content hash and the metadata, `full` has them. */
export type FolderFields = 'list' | 'full';
/** A file of a folder page: without `sha256` and `metadata` unless `full` was asked for. */
export type ListedFile = Omit<FileInfo, 'sha256' | 'metadata'> & Partial<Pick<FileInfo, 'sha256' | 'metadata'>>;

const FOLDER_CURSOR = 'folder-cursor';

/**
 * One page of a folder for people (F5): its subfolders (on the first page) and its files, ordered by name and
 * then ID, with an opaque cursor to the next page. Paging is by key (the last name and ID of the page), not by
 * offset: a file added or removed between two pages never makes one appear twice or pushes one that stayed
 * there throughout off the pages. Folders are derived from paths (F2). Without `fields: 'full'` the files come
 * without their content hash and metadata — most of the bytes of a long listing, and nothing a list shows.
 *
 * @example
 * const page = await listFolder(ctx, { folder: 'reports', limit: 100 });
 * const next = page.nextCursor ? await listFolder(ctx, { folder: 'reports', cursor: page.nextCursor }) : null;
 */
export async function listFolder(
  ctx: Ctx,
  input: { folder?: string; cursor?: string | null; limit?: number; fields?: FolderFields },
): Promise<{ folder: string; folders: FolderEntry[]; files: ListedFile[]; nextCursor: string | null; total: number; showMax: number }> {
  const folder = normalizePath(input.folder ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: folder });
  const db = ctx.platform.db.kysely;
  const showMax = ctx.platform.config.limits.uiMaxFiles;
  const limit = Math.min(Math.max(input.limit ?? 200, 1), showMax);
  const after = input.cursor ? await openCursor(ctx, FOLDER_CURSOR, folder, input.cursor) : null;
  if (after && after.length !== 2) throw new StoaError('bad_request', 'cursor is not one this listing gave: pass the nextCursor of an earlier answer');
  const folders = after
    ? []
    : (
        await db
          .selectFrom('dirs')
          .select(['path', 'name', 'file_count'])
          .where('project_id', '=', ctx.project.id)
          .where('parent', '=', folder)
          .orderBy('name')
          .execute()
      ).map((d) => ({ path: d.path, name: d.name, fileCount: Number(d.file_count) }));
  let q = db.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id).where('dir', '=', folder);
  // Names are unique in a folder (the path is the key), so the ID only breaks ties no row has; `name >=` keeps
  // the folder's name index usable for the range.
  if (after) {
    const [name, id] = after as [string, string];
    q = q.where('name', '>=', name).where((eb) => eb.or([eb('name', '>', name), eb('id', '>', id)]));
  }
  const rows = (await q
    .orderBy('name')
    .orderBy('id')
    .limit(limit + 1)
    .execute()) as FileRow[];
  const page = rows.slice(0, limit);
  const total = await directFileCount(db, ctx.project.id, folder);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? await sealCursor(ctx, FOLDER_CURSOR, folder, [last.name, last.id]) : null;
  const full = input.fields === 'full';
  return { folder, folders, files: page.map((r) => (full ? toFileInfo(r) : listed(r))), nextCursor, total, showMax };
}

/** A file for a list: its row without the content hash and the metadata. */
function listed(r: FileRow): ListedFile {
  const { sha256: _hash, metadata: _meta, ...rest } = toFileInfo({ ...r, metadata: null });
  return rest;
}

/**
 * Every file under a folder, recursively, ordered by path, a page at a time (cursor = last path).
 * `within` limits the listing to a scope the caller may read (agents' read scope).
 */
export async function listFilesRecursive(
  ctx: Ctx,
  input: { prefix?: string; cursor?: string | null; limit?: number },
): Promise<{ files: FileInfo[]; nextCursor: string | null }> {
  const prefix = normalizePath(input.prefix ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: prefix });
  const limit = Math.min(Math.max(input.limit ?? 1000, 1), 100_000);
  let q = ctx.platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id);
  if (prefix) q = q.where((eb) => eb.or([eb('path', '=', prefix), eb('path', 'like', sql<string>`${likeEscape(prefix) + '/%'} escape '\\'`)]));
  if (input.cursor) q = q.where('path', '>', input.cursor);
  const rows = (await q
    .orderBy('path')
    .limit(limit + 1)
    .execute()) as FileRow[];
  const page = rows.slice(0, limit);
  return { files: page.map(toFileInfo), nextCursor: rows.length > limit ? page[page.length - 1]!.path : null };
}

/** The folder tree (F5): every folder with its parent, for the tree view. */
export async function folderTree(ctx: Ctx): Promise<FolderEntry[]> {
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: '' });
  const rows = await ctx.platform.db.kysely
    .selectFrom('dirs')
    .select(['path', 'name', 'file_count'])
    .where('project_id', '=', ctx.project.id)
    .orderBy('path')
    .execute();
  return rows.map((d) => ({ path: d.path, name: d.name, fileCount: Number(d.file_count) }));
}

/**
 * The folders below `folder` (not the folder itself), in path order, at most `limit`: with the files below, they
 * make the whole tree under a folder, empty folders included (F9 as amended).
 *
 * @example
 * await foldersBelow(ctx, 'reports', 100) // ['reports/2026', 'reports/2026/q1']
 */
export async function foldersBelow(ctx: Ctx, input: string, limit: number): Promise<string[]> {
  const folder = normalizePath(input, 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: folder });
  let q = ctx.platform.db.kysely.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id);
  if (folder !== '') q = q.where(below('path', folder));
  const rows = await q.orderBy('path').limit(limit).execute();
  return rows.map((r) => r.path);
}

/**
 * Up to this many candidates of the whole needle, name search reads them by ID; beyond, it scans names in path
 * order (a needle whose trigrams together are that frequent finds `limit` matches within a short scan).
 */
const NAME_CANDIDATES_MAX = 1000;
/**
 * Up to this many candidates of a probe by the needle's rarest trigrams, name search reads them by ID. More
 * is rare (the probe trigrams are picked for being rare); then the scan in path order is the fallback.
 */
const PROBE_CANDIDATES_MAX = 5000;

/** An FTS5 string: each trigram quoted (a quote doubled), the whole needle as one phrase. */
const ftsString = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/**
 * SQLite: IDs of the files whose names may contain `needle`, from the trigram index of migration 006 — a
 * superset of the matches (trigram case folding is per character). Null when the scan in path order serves
 * better: the plan says so (no trigram, or a frequent needle), or the probe has more candidates than its cap.
 * PostgreSQL uses its pg_trgm index for LIKE itself (see `namePredicate`), so null there too.
 */
async function nameCandidates(ctx: Ctx, plan: NamePlan, needle: string): Promise<string[] | null> {
  if (ctx.platform.db.dialect !== 'sqlite' || plan.kind === 'scan') return null;
  const [query, max] = plan.kind === 'whole' ? [ftsString(needle), NAME_CANDIDATES_MAX] : [plan.trigrams.map(ftsString).join(' AND '), PROBE_CANDIDATES_MAX];
  const rows = await sql<{ rowid: number }>`select rowid from files_name_fts where files_name_fts match ${query} limit ${max + 1}`.execute(
    ctx.platform.db.kysely,
  );
  if (rows.rows.length > max) return null;
  if (rows.rows.length === 0) return [];
  const ids = await sql<{
    file_id: string;
  }>`select file_id from files_name_ids where id in (select value from json_each(${JSON.stringify(rows.rows.map((r) => r.rowid))}))`.execute(
    ctx.platform.db.kysely,
  );
  return ids.rows.map((r) => r.file_id);
}

/** The exact test of a name (always applied: candidates are only a superset), and on PostgreSQL the probe. */
function namePredicate(ctx: Ctx, plan: NamePlan, needle: string) {
  const like = (s: string) => sql<string>`${'%' + likeEscape(s) + '%'} escape '\\'`;
  if (ctx.platform.db.dialect !== 'postgres' || plan.kind !== 'probe') return sql<boolean>`name_lower like ${like(needle)}`;
  // pg_trgm takes each `LIKE '%abc%'` of three word characters as that one trigram: the index reads the rare
  // trigrams' lists only. The exact test is `strpos`, which the index does not take (an indexable LIKE of the
  // needle would bring all of its trigrams back into the index scan); for a plain substring it means the same.
  const probes = plan.trigrams.map((t) => sql`name_lower like ${like(t)}`);
  return sql<boolean>`${sql.join(probes, sql` and `)} and strpos(name_lower, ${needle}) > 0`;
}

/**
 * Name search (F7): case-insensitive substring of the file name over the whole storage, results with
 * full paths, ordered by path.
 */
export async function findFiles(ctx: Ctx, input: { text: string; limit?: number; within?: string }): Promise<{ files: FileInfo[]; truncated: boolean }> {
  const within = normalizePath(input.within ?? '', 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: within });
  const limit = Math.min(Math.max(input.limit ?? 1000, 1), ctx.platform.config.limits.uiMaxFiles);
  const needle = input.text.normalize('NFC').toLowerCase();
  const plan: NamePlan = needle ? await planNameSearch(ctx.platform, needle, limit) : { kind: 'scan' };
  const ids = await nameCandidates(ctx, plan, needle);
  if (ids && ids.length === 0) return { files: [], truncated: false };
  let q = ctx.platform.db.kysely.selectFrom('files').selectAll();
  // With candidate IDs, `+project_id` keeps SQLite (which has no statistics to go by) from walking the path
  // index over the whole project instead of reading the few candidates by primary key.
  // The IDs as a list of values, not a subquery: SQLite then reads each by primary key, where with a subquery
  // it may walk the path index over the whole project for the ORDER BY and test each row against the list.
  q = ids ? q.where('id', 'in', ids).where(sql`+project_id`, '=', ctx.project.id) : q.where('project_id', '=', ctx.project.id);
  if (needle) q = q.where(namePredicate(ctx, plan, needle));
  if (within) q = q.where('path', 'like', sql<string>`${likeEscape(within) + '/%'} escape '\\'`);
  const rows = (await q
    .orderBy('path')
    .limit(limit + 1)
    .execute()) as FileRow[];
  return { files: rows.slice(0, limit).map(toFileInfo), truncated: rows.length > limit };
}
