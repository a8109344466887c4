import type { FileChangeHandler, FolderChangeHandler } from '../platform.js';
import { below, rebased } from '../files/subtree-sql.js';
import { removeDoc, removeDocsByPath, renameDocPath } from '../search/index.js';
import { isTextMime } from '../files/mime.js';
import { newId } from '../ids.js';
import { CHUNK_KIND } from './assets.js';
import { parserFor } from './parse.js';

/**
 * A new PDF or DOCX is queued for understanding in its write's transaction, so the one search finds its text
 * without a manual step (the server's background pass parses it). Text files are not: their contents are
 * searched as they are (unified-search/file-index.ts), and understanding them is asked for when citations are.
 * Idempotent: a file already registered is left as it is.
 */
export async function queueDocument(trx: Parameters<FileChangeHandler>[0], change: Parameters<FileChangeHandler>[2]): Promise<void> {
  if (change.kind !== 'written' || isTextMime(change.mime) || !parserFor(change.mime, 'auto')) return;
  const file = await trx.selectFrom('files').select('sha256').where('id', '=', change.fileId).executeTakeFirst();
  if (!file) return;
  await trx
    .insertInto('doc_assets')
    .values({
      id: newId('fa'),
      project_id: change.projectId,
      file_id: change.fileId,
      path: change.path,
      version: change.version,
      sha256: file.sha256,
      parse_mode: 'auto',
      status: 'pending',
      vector_status: 'derived',
      error: null,
      chunk_count: 0,
      text_chars: 0,
      created_at: change.at,
      updated_at: change.at,
      deleted_at: null,
    })
    .onConflict((oc) => oc.columns(['project_id', 'file_id']).doNothing())
    .execute();
}

/**
 * Keeps understood files honest in the write's transaction: a new PDF or DOCX is queued for parsing (unless
 * `autoUnderstand` is off); a new
 * version takes the old chunks out of search and queues the asset for parsing; a move carries the path; a
 * delete takes the chunks out (their rows stay, so validation can say "deleted").
 */
export const understandingHook: FileChangeHandler = async (trx, ctx, change) => {
  // A file made by this very change has no asset yet: nothing to look up (one statement less per new file).
  const asset = change.fresh
    ? undefined
    : await trx
        .selectFrom('doc_assets')
        .select(['id', 'version'])
        .where('project_id', '=', change.projectId)
        .where('file_id', '=', change.fileId)
        .executeTakeFirst();
  // STOA_AUTO_UNDERSTAND=false: a file never understood waits for `docs understand`; one understood already
  // is kept honest below either way.
  if (!asset) return ctx.platform.config.autoUnderstand === false ? undefined : queueDocument(trx, change);
  const dialect = ctx.platform.db.dialect;
  if (change.kind === 'moved') {
    await trx.updateTable('doc_assets').set({ path: change.path }).where('id', '=', asset.id).execute();
    await renameDocPath({ kysely: trx, dialect }, { projectId: change.projectId, kind: CHUNK_KIND, from: change.fromPath!, to: change.path });
    return;
  }
  const chunks = await trx.selectFrom('doc_chunks').select('id').where('asset_id', '=', asset.id).execute();
  for (const c of chunks) await removeDoc({ kysely: trx, dialect }, { projectId: change.projectId, kind: CHUNK_KIND, refId: c.id });
  if (change.kind === 'deleted') {
    await trx
      .updateTable('doc_assets')
      .set({ deleted_at: change.at, status: 'failed', error: 'the file was deleted', error_code: 'deleted', chunk_count: 0 })
      .where('id', '=', asset.id)
      .execute();
  } else {
    // A new version is a new file to parse: its attempts start from zero.
    await trx
      .updateTable('doc_assets')
      .set({ status: 'pending', error: null, error_code: null, attempts: 0, updated_at: change.at })
      .where('id', '=', asset.id)
      .execute();
  }
};

/** A whole folder moved or deleted: its understood files follow by path prefix, in one statement per table. */
export const understandingFolderHook: FolderChangeHandler = async (trx, ctx, change) => {
  const dialect = ctx.platform.db.dialect;
  const assets = trx.updateTable('doc_assets').where('project_id', '=', change.projectId).where(below('path', change.from)).where('deleted_at', 'is', null);
  if (change.kind === 'moved') {
    await assets.set({ path: rebased('path', change.from, change.to!) }).execute();
    await renameDocPath({ kysely: trx, dialect }, { projectId: change.projectId, kind: CHUNK_KIND, from: change.from, to: change.to!, nested: true });
    return;
  }
  await assets.set({ deleted_at: change.at, status: 'failed', error: 'the file was deleted', chunk_count: 0 }).execute();
  await removeDocsByPath({ kysely: trx, dialect }, { projectId: change.projectId, kind: CHUNK_KIND, path: change.from, nested: true });
};
