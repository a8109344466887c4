import { sql } from 'kysely';
import { areaInstallers, type AreaInstaller } from '../areas.js';
import { isTextMime } from '../files/mime.js';
import type { FileChangeHandler } from '../hooks.js';
import { baseName } from '../paths.js';
import { indexDoc, removeDoc } from '../search/index.js';

/** Search-index kind of text files' contents. */
export const FILE_KIND = 'file';
/**
 * Visibility of every indexed file. File read rights are not per document: members read the whole storage and
 * agents read either the whole storage or their own folder (SPEC A2), which the search applies as a path prefix.
 */
export const FILE_VISIBILITY = 'files';

/**
 * Keeps the search index of file contents in step with the storage, inside the write's transaction: a written
 * text file (small enough that the write hands over its `text`) is indexed under its file name and contents;
 * any other write, and a delete, removes the entry; a move changes its path and title.
 *
 * @example
 * platform.hooks.onFileChange.push(fileIndexHook);
 */
export const fileIndexHook: FileChangeHandler = async (trx, ctx, change) => {
  const dialect = ctx.platform.db.dialect;
  if (change.kind === 'deleted' || (change.kind === 'written' && change.text === undefined) || (change.kind === 'moved' && !isTextMime(change.mime))) {
    await removeDoc(trx, dialect, change.projectId, FILE_KIND, change.fileId);
    return;
  }
  let body = change.text;
  if (change.kind === 'moved') {
    const r = await sql<{ body: string }>`select body from search_docs where project_id = ${change.projectId} and kind = ${FILE_KIND} and ref_id = ${change.fileId}`.execute(trx);
    if (r.rows.length === 0) return;
    body = r.rows[0]!.body;
  }
  await indexDoc(trx, dialect, {
    projectId: change.projectId, kind: FILE_KIND, refId: change.fileId, path: change.path, title: baseName(change.path),
    body: body ?? '', visibility: FILE_VISIBILITY, updatedAt: change.at,
  });
};

/** Registers the file-contents index hook on a platform (once). */
export const installFileIndex: AreaInstaller = (platform) => {
  if (!platform.hooks.onFileChange.includes(fileIndexHook)) platform.hooks.onFileChange.push(fileIndexHook);
};

if (!areaInstallers.includes(installFileIndex)) areaInstallers.push(installFileIndex);
