import { Readable } from 'node:stream';
import {
  runOperation,
  type Ctx,
  type DeadProp,
  type DeadPropChange,
  type FileInfo,
  type FolderEntry,
  type LegacyDigests,
  type LockTarget,
  type OpenedFile,
  type PutFileResult,
  type WriteLock,
} from '@stoa/core';

/**
 * What the WebDAV door does, each an operation of the table run through the runner (docs/architecture.md, "Which
 * door reaches which operations"): the file routes' operations where one does the job, `webdav.*` for locks,
 * properties and copies. The door calls nothing else of the core, so every rule of the runner holds here too.
 */
export const davOps = {
  statFile: (ctx: Ctx, path: string) => runOperation(ctx, 'files.stat', { path }) as Promise<FileInfo>,
  statFolder: (ctx: Ctx, path: string) => runOperation(ctx, 'webdav.statFolder', { path }) as Promise<FolderEntry | null>,
  // PROPFIND answers each file's ETag and checksums from its hash: the full fields.
  listFolder: (ctx: Ctx, input: { folder: string; cursor?: string | null; limit?: number }) =>
    runOperation(ctx, 'files.folder', { ...input, fields: 'full' }) as Promise<{
      folder: string;
      folders: FolderEntry[];
      files: FileInfo[];
      nextCursor: string | null;
      total: number;
    }>,
  listFilesRecursive: (ctx: Ctx, input: { prefix: string; cursor?: string | null; limit?: number }) =>
    runOperation(ctx, 'files.list', input) as Promise<{ files: FileInfo[]; nextCursor: string | null }>,
  folderTree: (ctx: Ctx) => runOperation(ctx, 'files.tree', {}) as Promise<FolderEntry[]>,
  open: (ctx: Ctx, path: string, range?: { start?: number; end?: number }) => runOperation(ctx, 'files.download', { path, range }) as Promise<OpenedFile>,
  put: (
    ctx: Ctx,
    path: string,
    source: Readable | string,
    opts: { create?: boolean; expectedVersion?: number; metadata?: Readonly<Record<string, string>> } = {},
  ) =>
    runOperation(ctx, 'files.upload', {
      path,
      source: typeof source === 'string' ? Readable.from([Buffer.from(source)]) : source,
      ...(opts.create ? { create: 'true' } : {}),
      ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}),
      ...(opts.metadata ? { metadata: JSON.stringify(opts.metadata) } : {}),
    }) as Promise<PutFileResult>,
  deleteFile: (ctx: Ctx, path: string, expectedVersion?: number) =>
    runOperation(ctx, 'files.delete', { path, ...(expectedVersion !== undefined ? { expectedVersion } : {}) }),
  deleteFolder: (ctx: Ctx, path: string, recursive: boolean) => runOperation(ctx, 'folders.delete', { path, ...(recursive ? { recursive: 'true' } : {}) }),
  createFolder: (ctx: Ctx, path: string) => runOperation(ctx, 'folders.create', { path }),
  moveFile: (ctx: Ctx, from: string, to: string) => runOperation(ctx, 'files.move', { from, to }),
  moveFolder: (ctx: Ctx, from: string, to: string) => runOperation(ctx, 'folders.move', { from, to }),
  moveOver: (ctx: Ctx, from: string, to: string) => runOperation(ctx, 'webdav.moveOver', { from, to }),
  copyFile: (ctx: Ctx, from: string, to: string) => runOperation(ctx, 'webdav.copy', { from, to }),
  setModified: (ctx: Ctx, path: string, modified: Date) => runOperation(ctx, 'webdav.setModified', { path, modified }),
  patchProps: (ctx: Ctx, path: string, changes: DeadPropChange[]) => runOperation(ctx, 'webdav.patchProps', { path, changes }),
  props: (ctx: Ctx, fileIds: string[]) => runOperation(ctx, 'webdav.props', { fileIds }) as Promise<Map<string, DeadProp[]>>,
  digests: (ctx: Ctx, files: FileInfo[]) => runOperation(ctx, 'webdav.digests', { files }) as Promise<Map<string, LegacyDigests>>,
  locksAround: (ctx: Ctx, path: string) => runOperation(ctx, 'webdav.locks', { path }) as Promise<WriteLock[]>,
  checkLocks: (ctx: Ctx, targets: LockTarget[], tokens?: string[]) => runOperation(ctx, 'webdav.checkLocks', { targets, tokens }) as Promise<void>,
  lock: (ctx: Ctx, input: { path: string; scope: 'exclusive' | 'shared'; depth: '0' | 'infinity'; owner: string | null; timeoutSeconds?: number }) =>
    runOperation(ctx, 'webdav.lock', input) as Promise<WriteLock>,
  refreshLocks: (ctx: Ctx, input: { path: string; tokens: string[]; timeoutSeconds?: number }) =>
    runOperation(ctx, 'webdav.refreshLocks', input) as Promise<WriteLock[]>,
  unlock: (ctx: Ctx, path: string, token: string) => runOperation(ctx, 'webdav.unlock', { path, token }),
};
