import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingStream } from './hashing-stream.js';

/**
 * Flushes a directory entry to disk. Without it a rename can be lost on power failure even though the file's
 * data was fsynced. Platforms that cannot open directories (Windows) skip it.
 *
 * @example
 * await rename(tmp, final); await fsyncDir(dirname(final));
 */
async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
  } catch (err) {
    if (isCode(err, 'EISDIR', 'EPERM', 'EACCES')) return;
    throw err;
  }
  try {
    await fh.sync().catch((err: unknown) => {
      if (!isCode(err, 'EINVAL', 'ENOTSUP', 'EPERM', 'EBADF')) throw err;
    });
  } finally {
    await fh.close();
  }
}

/** Directories this process made or found, so hot paths skip the mkdir system call. */
const knownDirs = new Set<string>();

/** Forgets a cached directory (after something outside removed it). */
function forgetDir(dir: string): void {
  knownDirs.delete(dir);
}

/**
 * `mkdir -p` that also fsyncs the parents of every directory it created, so a blob renamed into a new
 * `ab/cd/` directory survives a crash along with the directory itself.
 *
 * @example
 * await mkdirDurable(join(root, 'ab', 'cd'));
 */
export async function mkdirDurable(dir: string): Promise<void> {
  // Directories once made stay (blob deletes never remove them), so each is created and fsynced once per process.
  if (knownDirs.has(dir)) return;
  const first = await mkdir(dir, { recursive: true });
  knownDirs.add(dir);
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

/**
 * Unlinks a file; a missing file is fine (idempotent clean-up).
 *
 * @example
 * await unlinkQuiet(tmp);
 */
export async function unlinkQuiet(file: string): Promise<void> {
  await unlink(file).catch((err: unknown) => {
    if (!isCode(err, 'ENOENT')) throw err;
  });
}

/**
 * True when `file` exists (any type).
 *
 * @example
 * if (await exists(final)) await unlinkQuiet(tmp);
 */
export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if (isCode(err, 'ENOENT')) return false;
    throw err;
  }
}

/**
 * Streams `source` through `hasher` into a new file in `tmpDir`, fsyncs and closes it, and returns its path.
 * On any failure the temp file is removed before the error propagates, so an aborted write leaves nothing.
 * (A crash still leaves the temp file: that is what `sweepTemp` is for.)
 *
 * @example
 * const hasher = new HashingStream({ maxBytes });
 * const tmp = await writeTemp(join(root, '.tmp'), req, hasher);
 */
export async function writeTemp(tmpDir: string, source: Readable, hasher: HashingStream): Promise<string> {
  await mkdirDurable(tmpDir);
  const tmp = join(tmpDir, `${randomUUID()}.part`);
  const fh = await open(tmp, 'wx', 0o644).catch(async (err: unknown) => {
    if (!isCode(err, 'ENOENT')) throw err;
    forgetDir(tmpDir);
    await mkdirDurable(tmpDir);
    return open(tmp, 'wx', 0o644);
  });
  try {
    // flush: the stream fsyncs the descriptor after the last write and then closes it. (A stream made with
    // autoClose: false keeps a reference on the FileHandle that is never released, so fh.close() never settles.)
    await pipeline(source, hasher, fh.createWriteStream({ flush: true }));
    return tmp;
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlinkQuiet(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Atomically moves a finished temp file to `final` (same filesystem) and makes the rename durable.
 *
 * @example
 * await moveDurable(tmp, join(root, '.staging', uploadId));
 */
export async function moveDurable(tmp: string, final: string): Promise<void> {
  await mkdirDurable(dirname(final));
  await rename(tmp, final).catch(async (err: unknown) => {
    if (!isCode(err, 'ENOENT') || !(await exists(tmp))) throw err;
    forgetDir(dirname(final));
    await mkdirDurable(dirname(final));
    await rename(tmp, final);
  });
  await fsyncDir(dirname(final));
}

/**
 * True when `err` is a Node system error with one of `codes`.
 *
 * @example
 * if (isCode(err, 'ENOENT')) return null;
 */
export function isCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: unknown }).code as string);
}
