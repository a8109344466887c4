import type { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import type { Ctx, Platform } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { hotQuery } from '../hot-query.js';
import { assertAgentReadSize } from '../operations/agent-gate.js';
import { toFileInfo, type FileInfo, type FileRow } from './file-info.js';

/** The row of a path, or null; no rights check (callers check first). */
export async function findFileRow(ctx: Ctx, path: string): Promise<FileRow | null> {
  const [row] = await fileByPath(ctx.platform.db.kysely, { project: ctx.project.id, path });
  return (row as FileRow | undefined) ?? null;
}

/** Every read of a file starts here: built once (issue 30). */
const fileByPath = hotQuery((db, a: { project: string; path: string }) =>
  db.selectFrom('files').selectAll().where('project_id', '=', a.project).where('path', '=', a.path),
);

/** The rows of the files at `paths` that exist, in no particular order (one statement). */
export async function findFileRows(ctx: Ctx, paths: string[]): Promise<FileRow[]> {
  if (paths.length === 0) return [];
  if (paths.length > 4)
    return (await ctx.platform.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('project_id', '=', ctx.project.id)
      .where('path', 'in', paths)
      .execute()) as FileRow[];
  // A read tool's own copy and root file (one or two paths): built once per count (issue 30).
  const args: Record<string, string> = { project: ctx.project.id };
  paths.forEach((p, i) => (args[`p${i}`] = p));
  return (await filesByPaths(ctx.platform.db.kysely, args, paths.length)) as FileRow[];
}

/** The files at `p0` … `p<n - 1>`. */
const filesByPaths = hotQuery((db, a: Record<string, string>, n) =>
  db
    .selectFrom('files')
    .selectAll()
    .where('project_id', '=', a.project!)
    .where(
      'path',
      'in',
      Array.from({ length: n }, (_, i) => a[`p${i}`]!),
    ),
);

/**
 * Metadata of one file (§7 `files stat`).
 *
 * @example
 * const info = await statFile(ctx, 'reports/summary.md');
 */
export async function statFile(ctx: Ctx, rawPath: string): Promise<FileInfo> {
  return toFileInfo(await readableRow(ctx, rawPath));
}

/** The row of a file the actor may read; not_found when there is none. */
async function readableRow(ctx: Ctx, rawPath: string): Promise<FileRow> {
  const path = normalizePath(rawPath);
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  const row = await findFileRow(ctx, path);
  if (!row) throw new StoaError('not_found', `file "${path}" does not exist`);
  return row;
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

/** A download answered by a redirect: the bytes are fetched from `url`, a presigned GET of object storage. */
export interface RedirectedFile {
  info: FileInfo;
  size: number;
  sha256: string;
  version: number;
  url: string;
}

/** Presigned downloads live this long: enough to start a transfer, too short to pass around. */
const REDIRECT_SECONDS = 300;

/**
 * A download: a redirect to a presigned GET where object storage allows it and the installation wants it
 * (`STOA_S3_REDIRECT_DOWNLOADS`), otherwise the bytes. The same checks either way (rights, the agent's read
 * limit, the version asked for) — the redirect only changes who carries the bytes.
 *
 * @example
 * const r = await downloadFile(ctx, 'video/raw.mp4', { redirect: true }); // 'url' in r → 302 to it
 */
export async function downloadFile(
  ctx: Ctx,
  rawPath: string,
  opts: { version?: number | undefined; range?: { start?: number; end?: number } | undefined; redirect?: boolean | undefined },
): Promise<OpenedFile | RedirectedFile> {
  const storage = ctx.platform.config.storage;
  if (!opts.redirect || storage.kind !== 's3' || storage.redirectDownloads === false) return openFile(ctx, rawPath, opts);
  const info = await statFile(ctx, rawPath);
  const stored = await storedVersion(ctx.platform, info, opts.version);
  if (!stored) throw new StoaError('not_found', `version ${opts.version} of "${info.path}" does not exist`);
  assertAgentReadSize(ctx, info.path, stored.size);
  const url = await ctx.platform.blobs.presignGet(stored.blobKey, REDIRECT_SECONDS, { filename: info.name, contentType: info.type });
  if (url === null) return openFile(ctx, rawPath, opts);
  return { info, size: stored.size, sha256: stored.sha256, version: stored.version, url };
}

/**
 * Opens a file (or one of its versions) for reading, optionally a byte range (inclusive end, as HTTP Range).
 */
export async function openFile(
  ctx: Ctx,
  rawPath: string,
  opts: { version?: number | undefined; range?: { start?: number; end?: number } | undefined } = {},
): Promise<OpenedFile> {
  const row = await readableRow(ctx, rawPath);
  const info = toFileInfo(row);
  // The current version's bytes are named by the row just read: no second read of it (issue 30).
  const stored =
    opts.version === undefined || opts.version === info.version
      ? { blobKey: row.blob_key, size: info.size, sha256: info.sha256, version: info.version }
      : await storedVersion(ctx.platform, info, opts.version);
  if (!stored) throw new StoaError('not_found', `version ${opts.version} of "${info.path}" does not exist`);
  const { blobKey, size, sha256, version } = stored;
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

/**
 * Where the bytes of one version of a file are (the current one unless asked): the file's own row or a kept
 * version's; undefined when that version is gone. No rights check (callers check first).
 *
 * @example
 * const v = await storedVersion(platform, info, 2); // { blobKey, size, sha256, version: 2 }
 */
export async function storedVersion(
  platform: Platform,
  file: Pick<FileInfo, 'id' | 'version'>,
  version = file.version,
): Promise<{ blobKey: string; size: number; sha256: string; version: number } | undefined> {
  const row =
    version === file.version
      ? await platform.db.kysely.selectFrom('files').select(['blob_key', 'size', 'sha256']).where('id', '=', file.id).executeTakeFirst()
      : await platform.db.kysely
          .selectFrom('file_versions')
          .select(['blob_key', 'size', 'sha256'])
          .where('file_id', '=', file.id)
          .where('version', '=', version)
          .executeTakeFirst();
  return row ? { blobKey: row.blob_key, size: Number(row.size), sha256: row.sha256, version } : undefined;
}

/** The whole content of a small file as a Buffer (callers enforce their own size limits first). */
export async function readFileBytes(ctx: Ctx, rawPath: string): Promise<{ info: FileInfo; bytes: Buffer }> {
  const info = await statFile(ctx, rawPath);
  assertAgentReadSize(ctx, info.path, info.size);
  const row = await findFileRow(ctx, info.path);
  return { info, bytes: await ctx.platform.blobs.read(row!.blob_key) };
}
