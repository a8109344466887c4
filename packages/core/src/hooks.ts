import type { Ctx, FileChange, FolderChange, Q } from './platform.js';

export type { FileChange, FileChangeHandler, FolderChange, FolderChangeHandler, Hooks } from './platform.js';

/** Runs the platform's file-change hooks, in order, inside the change's transaction. */
export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}

/** Runs the platform's folder-change hooks, in order, inside the change's transaction. */
export async function runFolderChangeHooks(trx: Q, ctx: Ctx, change: FolderChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFolderChange) await h(trx, ctx, change);
}
