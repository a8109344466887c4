import type { Q, Ctx } from './platform.js';

/**
 * Extension points that run inside the transaction of a change, so derived data (search index, links) commits
 * or rolls back with it. Areas register their handlers once at start-up.
 */
export interface FileChange {
  kind: 'written' | 'moved' | 'deleted';
  projectId: string;
  fileId: string;
  path: string;
  fromPath?: string;
  mime: string;
  size: number;
  version: number;
  /** The new bytes when the change wrote a text file small enough to index (see files/put-file.ts). */
  text?: string;
  at: string;
}

export type FileChangeHandler = (trx: Q, ctx: Ctx, change: FileChange) => Promise<void>;

export interface Hooks {
  onFileChange: FileChangeHandler[];
}

export function createHooks(): Hooks {
  return { onFileChange: [] };
}

/**
 * Runs in the transaction of every file write, move and delete: records the change in the feed (B7), then calls
 * the areas' handlers.
 */
export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  await trx.insertInto('file_changes').values({
    project_id: change.projectId, kind: change.kind, path: change.path, from_path: change.fromPath ?? null,
    version: change.version, size: change.size, at: change.at,
  }).execute();
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}
