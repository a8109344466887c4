import { isTextMime } from '../files/mime.js';
import type { FileChangeHandler, FolderChangeHandler } from '../platform.js';
import { baseName } from '../paths.js';
import { indexDoc, removeDoc, removeDocsByPath, renameDocPath } from '../search/index.js';

/** Search-index kind of text files' contents. */
export const FILE_KIND = 'file';
/**
 * Visibility of every indexed file. File read rights are not per document: members read the whole storage and
 * agents read either the whole storage or their own folder (A2), which the search applies as a path prefix.
 */
export const FILE_VISIBILITY = 'files';

/** Text files up to this size are indexed (the same 1 MiB that files/put-file.ts hands over as `text`). */
export const FILE_INDEX_MAX_BYTES = 1_048_576;

/**
 * The text to index for a change: what a write handed over, or — for writers that do not (copies, direct
 * uploads) and for moves — the stored bytes of a small text file, so every write path is indexed alike.
 */
async function textOf(
  trx: Parameters<FileChangeHandler>[0],
  ctx: Parameters<FileChangeHandler>[1],
  change: Parameters<FileChangeHandler>[2],
): Promise<string | undefined> {
  if (change.kind === 'deleted') return undefined;
  if (change.kind === 'written' && change.text !== undefined) return change.text;
  if (!isTextMime(change.mime) || change.size > FILE_INDEX_MAX_BYTES) return undefined;
  const row = await trx.selectFrom('files').select('blob_key').where('id', '=', change.fileId).executeTakeFirst();
  if (!row) return undefined;
  return (await ctx.platform.blobs.read(row.blob_key)).toString('utf8');
}

/**
 * Keeps the search index of file contents in step with the storage, inside the write's transaction: a written
 * text file up to FILE_INDEX_MAX_BYTES is indexed under its file name and contents;
 * any other write, and a delete, removes the entry; a move re-indexes it under its new path and name.
 *
 * @example
 * platform.hooks.onFileChange.push(fileIndexHook);
 */
export const fileIndexHook: FileChangeHandler = async (trx, ctx, change) => {
  const dialect = ctx.platform.db.dialect;
  const body = await textOf(trx, ctx, change);
  if (body === undefined) {
    await removeDoc({ kysely: trx, dialect }, { projectId: change.projectId, kind: FILE_KIND, refId: change.fileId });
    return;
  }
  await indexDoc(
    { kysely: trx, dialect },
    {
      projectId: change.projectId,
      kind: FILE_KIND,
      refId: change.fileId,
      path: change.path,
      title: baseName(change.path),
      body,
      visibility: FILE_VISIBILITY,
      updatedAt: change.at,
    },
  );
};

/** A whole folder moved or deleted: the entries below it follow by path prefix, in one statement. */
export const fileIndexFolderHook: FolderChangeHandler = async (trx, ctx, change) => {
  const dialect = ctx.platform.db.dialect;
  if (change.kind === 'moved')
    await renameDocPath({ kysely: trx, dialect }, { projectId: change.projectId, kind: FILE_KIND, from: change.from, to: change.to!, nested: true });
  else await removeDocsByPath({ kysely: trx, dialect }, { projectId: change.projectId, kind: FILE_KIND, path: change.from, nested: true });
};
