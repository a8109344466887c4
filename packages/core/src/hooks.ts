import type { Ctx, FileChange, Q } from './platform.js';

export type { FileChange, FileChangeHandler, Hooks } from './platform.js';

/** Runs the platform's file-change hooks, in order, inside the change's transaction. */
export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}
