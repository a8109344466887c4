import { PassThrough, type Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { assertAgentReadSize } from '../operations/agent-gate.js';
import type { FileInfo } from './file-info.js';
import { listFilesRecursive } from './list-files.js';
import { openFile, statFile } from './read-file.js';

/** A zip being streamed: its name, what it holds, and the bytes. */
export interface Archive {
  name: string;
  files: number;
  bytes: number;
  stream: Readable;
}

/** Types worth deflating; everything else (pictures, video, archives, PDFs) is already compressed and is stored. */
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|x-ndjson|yaml|x-yaml|sql|csv|x-sh|toml))/;

/**
 * Many files as one zip download (F12 for several files): the ticked `paths`, or everything under `folder`. Every
 * file is checked before the first byte is sent — the caller's right to read it, an agent's confinement and read
 * limit, that it exists (a missing path and one the caller may not see answer alike: not_found) and the totals
 * (STOA_ARCHIVE_MAX_FILES, STOA_ARCHIVE_MAX_BYTES: too_large) — so a refusal is a 4xx, never a cut-off zip.
 * The exact versions checked are the ones streamed, one file open at a time; names in the zip are relative to
 * the folder (or to the common folder of the paths), text is deflated, the rest stored; ZIP64 when needed.
 *
 * @example
 * const zip = await archiveFiles(ctx, { folder: 'reports' }); // zip.name "reports.zip", zip.stream → the response
 */
export async function archiveFiles(ctx: Ctx, input: { paths?: string[] | undefined; folder?: string | undefined }): Promise<Archive> {
  const { archiveMaxFiles: maxFiles, archiveMaxBytes: maxBytes } = ctx.platform.config.limits;
  const chosen = input.paths?.length ? await filesAt(ctx, input.paths, maxFiles) : await filesUnder(ctx, input.folder ?? '', maxFiles);
  if (chosen.length === 0) throw new StoaError('bad_request', 'nothing to download: no files given, or the folder is empty');
  let bytes = 0;
  for (const f of chosen) {
    assertAgentReadSize(ctx, f.path, f.size);
    bytes += f.size;
  }
  if (bytes > maxBytes) throw new StoaError('too_large', `the files hold ${bytes} bytes; one download holds at most ${maxBytes}`, { limit: maxBytes });
  const base = input.paths?.length ? commonFolder(chosen.map((f) => f.path)) : normalizePath(input.folder ?? '', 'folder');
  // The zip writer is loaded by the first download of many files (issue 31: nothing idle loads it).
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.on('error', (e) => out.destroy(e));
  zip.on('error', (e: Error) => out.destroy(e));
  zip.outputStream.pipe(out);
  for (const f of chosen) {
    const name = base ? f.path.slice(base.length + 1) : f.path;
    zip.addReadStreamLazy(name, { mtime: new Date(f.modified), size: f.size, compress: COMPRESSIBLE.test(f.type) }, (cb) => {
      openFile(ctx, f.path, { version: f.version }).then(
        (opened) => cb(null, opened.stream),
        (e: unknown) => cb(e, undefined as never),
      );
    });
  }
  zip.end();
  const leaf = base.split('/').pop() || ctx.project.name;
  return { name: `${leaf}.zip`, files: chosen.length, bytes, stream: out };
}

/** The ticked files, each checked as a single download would be; a path named twice is zipped once. */
async function filesAt(ctx: Ctx, raw: string[], maxFiles: number): Promise<FileInfo[]> {
  const paths = [...new Set(raw.map((p) => normalizePath(p)))];
  if (paths.length > maxFiles) throw new StoaError('too_large', `${paths.length} files asked for; one download holds at most ${maxFiles}`, { limit: maxFiles });
  const files: FileInfo[] = [];
  for (const p of paths) files.push(await statFile(ctx, p));
  return files;
}

/** Every file under a folder the caller may list, each checked again on its own path. */
async function filesUnder(ctx: Ctx, folder: string, maxFiles: number): Promise<FileInfo[]> {
  const { files, nextCursor } = await listFilesRecursive(ctx, { prefix: folder, limit: maxFiles });
  if (nextCursor !== null)
    throw new StoaError('too_large', `the folder holds more than ${maxFiles} files; one download holds at most ${maxFiles}`, { limit: maxFiles });
  for (const f of files) assertCan(ctx.actor, 'file.read', { kind: 'file', path: f.path });
  return files;
}

/**
 * The deepest folder holding every path, so the zip keeps the structure below it.
 *
 * @example
 * commonFolder(['reports/2026/a.csv', 'reports/b.csv']) // "reports"
 */
function commonFolder(paths: string[]): string {
  const split = paths.map((p) => p.split('/').slice(0, -1));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}
