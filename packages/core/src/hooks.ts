import { sql } from 'kysely';
import type { Ctx, FileChange, FolderChange, Q } from './platform.js';
import { below, rebased } from './files/subtree-sql.js';
import { hotQuery } from './hot-query.js';
import { enqueueFile } from './outbox/outbox.js';
import { isTextMime } from './files/mime.js';
import { FILE_INDEX_MAX_BYTES } from './unified-search/file-index.js';

export type { FileChange, FileChangeHandler, FolderChange, FolderChangeHandler, Hooks } from './platform.js';

/** Every file change writes one: built once (issue 30). */
const insertChange = hotQuery(
  (db, a: { project_id: string; kind: string; path: string; from_path: string | null; version: number; size: number; at: string }) =>
    db.insertInto('file_changes').values({
      project_id: a.project_id,
      kind: a.kind,
      path: a.path,
      from_path: a.from_path,
      version: a.version,
      size: a.size,
      at: a.at,
    }),
);

/**
 * Runs in the transaction of every file write, move and delete: records the change in the feed (B7) and in the
 * derived-data outbox (the search index of the file's contents is written after the commit, outbox/drain.ts),
 * then runs the platform's file-change hooks, in order.
 */
export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  await insertChange(trx, {
    project_id: change.projectId,
    kind: change.kind,
    path: change.path,
    from_path: change.fromPath ?? null,
    version: change.version,
    size: change.size,
    at: change.at,
  });
  // Only a file that is, or was, a small text file has a search entry to write or remove.
  const indexable = (mime: string, size: number) => isTextMime(mime) && size <= FILE_INDEX_MAX_BYTES;
  if (indexable(change.mime, change.size) || (change.previous && indexable(change.previous.mime, change.previous.size)))
    await enqueueFile(trx, {
      projectId: change.projectId,
      fileId: change.fileId,
      version: change.version,
      path: change.path,
      at: change.at,
      text: change.text,
      size: change.size,
    });
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}

/**
 * Records a whole-folder change in the feed (B7) as one entry per file, in one statement: a watcher of the feed
 * sees every file a folder move or delete touched. Call it while the files are where the entries say: after a
 * move (they are under `to`), before a delete (still under `from`).
 */
export async function recordFolderInFeed(trx: Q, change: FolderChange): Promise<void> {
  const moved = change.kind === 'moved';
  const at = moved ? change.to! : change.from;
  await trx
    .insertInto('file_changes')
    .columns(['project_id', 'kind', 'path', 'from_path', 'version', 'size', 'at'])
    .expression((eb) =>
      eb
        .selectFrom('files')
        .select([
          'project_id',
          sql<string>`cast(${change.kind} as text)`.as('kind'),
          'path',
          (moved ? rebased('path', at, change.from) : sql<string | null>`null`).as('from_path'),
          'version',
          'size',
          sql<string>`cast(${change.at} as text)`.as('at'),
        ])
        .where('project_id', '=', change.projectId)
        .where(below('path', at))
        .orderBy('path'),
    )
    .execute();
}

/** Runs the platform's folder-change hooks, in order, inside the change's transaction. */
export async function runFolderChangeHooks(trx: Q, ctx: Ctx, change: FolderChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFolderChange) await h(trx, ctx, change);
}
