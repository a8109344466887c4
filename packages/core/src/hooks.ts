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

/**
 * A whole folder moved or deleted in one statement per table: handlers update derived data by path prefix
 * (`from` and everything below `from/`), never file by file.
 */
export interface FolderChange {
  kind: 'moved' | 'deleted';
  projectId: string;
  from: string;
  /** The new folder path of a move. */
  to?: string;
  at: string;
}

export type FolderChangeHandler = (trx: Q, ctx: Ctx, change: FolderChange) => Promise<void>;

export interface Hooks {
  onFileChange: FileChangeHandler[];
  onFolderChange: FolderChangeHandler[];
}

export function createHooks(): Hooks {
  return { onFileChange: [], onFolderChange: [] };
}

export async function runFolderChangeHooks(trx: Q, ctx: Ctx, change: FolderChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFolderChange) await h(trx, ctx, change);
}

export async function runFileChangeHooks(trx: Q, ctx: Ctx, change: FileChange): Promise<void> {
  for (const h of ctx.platform.hooks.onFileChange) await h(trx, ctx, change);
}
