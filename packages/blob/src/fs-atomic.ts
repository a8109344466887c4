import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
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
export async function fsyncDir(dir: string): Promise<void> {
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

/**
 * `mkdir -p` that also fsyncs the parent of every directory it created, so what is later renamed into the new
 * directory survives a crash along with the directory itself.
 *
 * @example
 * await mkdirDurable(join(root, 'ab'));
 */
async function mkdirDurable(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

/**
 * Makes `root` and the folders `names` inside it, then fsyncs `root` — always, even when every folder was
 * there: a process that made them and died before its fsync leaves folders that a power cut could still take,
 * and blobs renamed into them would go along. One readdir, one fsync and a mkdir per missing folder.
 *
 * @example
 * await makeLayout(root, ['.tmp', '.staging', '00', '01', …, 'ff']);
 */
export async function makeLayout(root: string, names: readonly string[]): Promise<void> {
  await mkdirDurable(root);
  const present = new Set(await readdir(root));
  await Promise.all(
    names
      .filter((name) => !present.has(name))
      .map((name) =>
        mkdir(join(root, name)).catch((err: unknown) => {
          if (!isCode(err, 'EEXIST')) throw err;
        }),
      ),
  );
  await fsyncDir(root);
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

/** Opens a new temp file in `tmpDir` (made at start); if something outside removed the folder, makes it again. */
async function openTemp(tmpDir: string): Promise<{ tmp: string; fh: import('node:fs/promises').FileHandle }> {
  const tmp = join(tmpDir, `${randomUUID()}.part`);
  const fh = await open(tmp, 'wx', 0o644).catch(async (err: unknown) => {
    if (!isCode(err, 'ENOENT')) throw err;
    await mkdirDurable(tmpDir);
    return open(tmp, 'wx', 0o644);
  });
  return { tmp, fh };
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
  const { tmp, fh } = await openTemp(tmpDir);
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
 * Writes bytes already in memory (and already hashed) into a new file in `tmpDir`, fsyncs and closes it.
 *
 * @example
 * const tmp = await writeTempBuffer(join(root, '.tmp'), Buffer.from('hello'));
 */
export async function writeTempBuffer(tmpDir: string, buf: Buffer): Promise<string> {
  const { tmp, fh } = await openTemp(tmpDir);
  try {
    try {
      await fh.writeFile(buf);
      await fh.sync();
    } finally {
      await fh.close();
    }
    return tmp;
  } catch (err) {
    await unlinkQuiet(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Atomically moves a finished (fsynced) temp file to `final` on the same filesystem and makes the rename durable
 * through `syncDir` (a group commit shared with concurrent moves). The folder of `final` is made at start; if
 * something outside removed it, it is made again.
 *
 * @example
 * await moveDurable(tmp, join(root, '.staging', uploadId), createGroupSync(fsyncDir));
 */
export async function moveDurable(tmp: string, final: string, syncDir: (dir: string) => Promise<void>): Promise<void> {
  await rename(tmp, final).catch(async (err: unknown) => {
    if (!isCode(err, 'ENOENT') || !(await exists(tmp))) throw err;
    await mkdirDurable(dirname(final));
    await rename(tmp, final);
  });
  await syncDir(dirname(final));
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
