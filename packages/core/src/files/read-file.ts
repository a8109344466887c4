import type { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { assertAgentReadSize } from '../operations/agent-gate.js';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';

/** The row of a path, or null; no rights check (callers check first). */
export async function findFileRow(ctx: Ctx, path: string): Promise<FileRow | null> {
  const row = await ctx.platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id).where('path', '=', path).executeTakeFirst();
  return (row as FileRow | undefined) ?? null;
}

/**
 * Metadata of one file (§7 `files stat`).
 *
 * @example
 * const info = await statFile(ctx, 'reports/summary.md');
 */
export async function statFile(ctx: Ctx, rawPath: string): Promise<FileInfo> {
  const path = normalizePath(rawPath);
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  const row = await findFileRow(ctx, path);
  if (!row) throw new StoaError('not_found', `file "${path}" does not exist`);
  return toFileInfo(row);
}

export interface OpenedFile {
  info: FileInfo;
  /** Size and hash of the bytes served (those of `version` when one was asked for). */
  size: number;
  sha256: string;
  version: number;
  stream: Readable;
  range?: { start: number; end: number };
}

/**
 * Opens a file (or one of its versions) for reading, optionally a byte range (inclusive end, as HTTP Range).
 */
export async function openFile(ctx: Ctx, rawPath: string, opts: { version?: number; range?: { start?: number; end?: number } } = {}): Promise<OpenedFile> {
  const info = await statFile(ctx, rawPath);
  let blobKey: string | undefined;
  let size = info.size;
  let sha256 = info.sha256;
  let version = info.version;
  if (opts.version !== undefined && opts.version !== info.version) {
    const v = await ctx.platform.db.kysely
      .selectFrom('file_versions')
      .select(['blob_key', 'size', 'sha256', 'version'])
      .where('file_id', '=', info.id)
      .where('version', '=', opts.version)
      .executeTakeFirst();
    if (!v) throw new StoaError('not_found', `version ${opts.version} of "${info.path}" does not exist`);
    blobKey = v.blob_key;
    size = Number(v.size);
    sha256 = v.sha256;
    version = v.version;
  } else {
    const row = await findFileRow(ctx, info.path);
    blobKey = row!.blob_key;
  }
  assertAgentReadSize(ctx, info.path, size);
  let range: { start: number; end: number } | undefined;
  if (opts.range) {
    const start = opts.range.start ?? (opts.range.end !== undefined ? Math.max(0, size - opts.range.end) : 0);
    const end = opts.range.start === undefined && opts.range.end !== undefined ? size - 1 : Math.min(opts.range.end ?? size - 1, size - 1);
    if (start >= size || start > end || start < 0) throw new StoaError('range_not_satisfiable', `range is outside the ${size}-byte file`, { size });
    range = { start, end };
  }
  const stream = await ctx.platform.blobs.get(blobKey, range);
  return { info, size, sha256, version, stream, range };
}

/** The whole content of a small file as a Buffer (callers enforce their own size limits first). */
export async function readFileBytes(ctx: Ctx, rawPath: string): Promise<{ info: FileInfo; bytes: Buffer }> {
  const info = await statFile(ctx, rawPath);
  assertAgentReadSize(ctx, info.path, info.size);
  const row = await findFileRow(ctx, info.path);
  return { info, bytes: await ctx.platform.blobs.read(row!.blob_key) };
}
