import type { Ctx, FileChange, FolderChange, Q } from './platform.js';

export type { FileChange, FileChangeHandler, FolderChange, FolderChangeHandler, Hooks } from './platform.js';

/**
 * Runs in the transaction of every file write, move and delete: records the change in the feed (B7), then runs the
 * platform's file-change hooks, in order.
 */
export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  await trx
    .insertInto('file_changes')
    .values({
      project_id: change.projectId,
      kind: change.kind,
      path: change.path,
      from_path: change.fromPath ?? null,
      version: change.version,
      size: change.size,
      at: change.at,
    })
    .execute();
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}

/** Runs the platform's folder-change hooks, in order, inside the change's transaction. */
export async function runFolderChangeHooks(trx: Q, ctx: Ctx, change: FolderChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFolderChange) await h(trx, ctx, change);
}
