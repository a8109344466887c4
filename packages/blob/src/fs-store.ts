import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { copyFile, link, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { BlobHashMismatchError, BlobNotFoundError, BlobSizeMismatchError, toSafeError } from './errors.js';
import { exists, fsyncDir, isCode, makeLayout, moveDurable, unlinkQuiet, writeTemp, writeTempBuffer } from './fs-atomic.js';
import { createGroupSync } from './fs-group-sync.js';
import { checkInMemory, HashingStream, hashStream, inMemory, readHead, type BlobSource } from './hashing-stream.js';
import { assertBlobKey, assertByteLimit, assertUploadId, isBlobKey, normalizeSha256 } from './keys.js';
import { resolveRange, type ByteRange } from './range.js';
import type { BlobStore, PartSpan, PromoteExpectation, PutOptions, PutResult } from './types.js';
import { pipeline } from 'node:stream/promises';

/** The local-disk blob store; `sweepTemp` is always available here. */
export interface FsBlobStore extends BlobStore {
  readonly kind: 'fs';
  sweepTemp(olderThanMs: number): Promise<number>;
}

const HEX2 = /^[0-9a-f]{2}$/;
/** Uploads up to this size are read into memory before they are written (16 at once hold 4 MiB). */
const SMALL_PUT_BYTES = 256 * 1024;
/** The 256 blob folders `00` … `ff`. */
const SHARDS: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A blob store on the local disk: blobs under `root/ab/<sha256>`, writes in progress under `root/.tmp`,
 * staged direct uploads under `root/.staging`. Every write goes temp file → fsync → rename → fsync dir, so a
 * crash leaves either no blob or a whole one; `.tmp` and `.staging` share the filesystem with the blobs so the
 * final rename is atomic.
 *
 * At the disk's pace (issue 30): the 256 blob folders, `.tmp` and `.staging` are made (and fsynced) once, before
 * the first write of the process, so a put never makes a folder; the folder fsync after a rename is a group
 * commit shared by the puts that renamed meanwhile (createGroupSync). A put of new content thus costs one fsync
 * of its own file and a share of one folder fsync, and is answered only once both are done.
 *
 * @example
 * const store = createFsBlobStore({ root: join(dataDir, 'blobs') });
 * const { key } = await store.put(fs.createReadStream('report.pdf'), { maxBytes: 25 << 20 });
 * await store.sweepTemp(24 * 3600_000); // at start-up: leftovers of writes interrupted by a crash
 */
export function createFsBlobStore(opts: { root: string }): FsBlobStore {
  const root = resolve(opts.root);
  const tmpDir = join(root, '.tmp');
  const stagingDir = join(root, '.staging');
  // One level of 256 folders: enough spread for millions of blobs, and after warm-up no put creates a folder
  // (two levels would make almost every small put create and fsync a new folder).
  const blobPath = (key: string): string => join(root, key.slice(0, 2), key);
  const syncDir = createGroupSync(fsyncDir);
  let layout: Promise<void> | undefined;
  /** The folders every write needs, made once per process before the first write (again after a failure). */
  const ready = (): Promise<void> =>
    (layout ??= makeLayout(root, ['.tmp', '.staging', ...SHARDS]).catch((err: unknown) => {
      layout = undefined;
      throw err;
    }));
  const stagingPath = (uploadId: string): string => join(stagingDir, uploadId);
  // Parts are written in place into one file of the whole size, so joining them is a rename, not a copy.
  const partsPath = (uploadId: string): string => join(stagingDir, `${uploadId}.parts`);

  /**
   * The size of a blob file, or null when there is none. A stat on the main thread, as SQLite's own reads are:
   * it takes microseconds, while the same call on libuv's four threads waits behind the fsyncs of every put in
   * flight — and the commit transaction of a write, which holds the database, asks it (issue 30).
   */
  function blobSize(file: string): number | null {
    try {
      return statSync(file).size;
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) return null;
      throw err;
    }
  }

  /** Moves a verified temp file under its hash. An existing blob with that hash wins (same bytes by
   *  definition, and no folder fsync); overwriting it in a race with a concurrent equal put would be harmless
   *  too. `checked`: the caller has just found no blob under that hash. */
  async function commit(tmp: string, sha256: string, size: number, checked = false): Promise<PutResult> {
    const final = blobPath(sha256);
    if (!checked && blobSize(final) !== null) await unlinkQuiet(tmp);
    else await moveDurable(tmp, final, syncDir);
    return { key: sha256, size, sha256 };
  }

  async function openBlob(key: string) {
    assertBlobKey(key);
    try {
      return await open(blobPath(key), 'r');
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) throw new BlobNotFoundError();
      throw toSafeError(err, 'open the blob');
    }
  }

  /** Puts a claimed staging file back unless a newer upload took its name meanwhile (link never replaces). */
  async function restoreStaging(claimed: string, staged: string): Promise<void> {
    try {
      await link(claimed, staged);
    } catch (err) {
      // Filesystems without hard links: a rename, racy only against a concurrent writeStaging of the same id.
      if (!isCode(err, 'EEXIST') && !(await exists(staged))) {
        await rename(claimed, staged);
        return;
      }
    }
    await unlinkQuiet(claimed);
  }

  /** A private name for the staged bytes that leaves them in place: a hard link, or a copy where there are none. */
  async function linkOrCopy(staged: string, claimed: string): Promise<void> {
    try {
      await link(staged, claimed);
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) throw err;
      await copyFile(staged, claimed);
    }
  }

  return {
    kind: 'fs',

    async put(source: BlobSource, opts: PutOptions = {}): Promise<PutResult> {
      assertByteLimit(opts.maxBytes);
      const expected = opts.expectedSha256 === undefined ? undefined : normalizeSha256(opts.expectedSha256);
      let buf = inMemory(source);
      let tmp: string | undefined;
      try {
        // Uploads that fit in SMALL_PUT_BYTES are read whole first and take the in-memory path: one write call
        // instead of a stream of them (issue 30), and content already stored costs no write at all.
        const head = buf === null ? await readHead(source as Readable, SMALL_PUT_BYTES, opts.maxBytes) : null;
        buf ??= head?.whole ?? null;
        if (buf !== null) {
          const sha256 = checkInMemory(buf, opts.maxBytes, expected);
          if (blobSize(blobPath(sha256)) !== null) return { key: sha256, size: buf.length, sha256 };
          await ready();
          tmp = await writeTempBuffer(tmpDir, buf);
          return await commit(tmp, sha256, buf.length, true);
        }
        const hasher = new HashingStream({ maxBytes: opts.maxBytes });
        await ready();
        tmp = await writeTemp(tmpDir, head!.rest!, hasher);
        if (expected !== undefined && hasher.sha256 !== expected) throw new BlobHashMismatchError(expected, hasher.sha256);
        return await commit(tmp, hasher.sha256, hasher.bytes);
      } catch (err) {
        if (tmp !== undefined) await unlinkQuiet(tmp).catch(() => undefined);
        throw toSafeError(err, 'store the content');
      }
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      const fh = await openBlob(key);
      try {
        const { size } = await fh.stat();
        const r = range === undefined ? { start: 0, end: undefined } : resolveRange(range, size);
        return fh.createReadStream({ start: r.start, ...(r.end === undefined ? {} : { end: r.end }), autoClose: true });
      } catch (err) {
        await fh.close().catch(() => undefined);
        throw toSafeError(err, 'read the blob');
      }
    },

    async read(key: string): Promise<Buffer> {
      assertBlobKey(key);
      try {
        return await readFile(blobPath(key));
      } catch (err) {
        if (isCode(err, 'ENOENT', 'ENOTDIR')) throw new BlobNotFoundError();
        throw toSafeError(err, 'read the blob');
      }
    },

    async stat(key: string): Promise<{ size: number } | null> {
      assertBlobKey(key);
      try {
        const size = blobSize(blobPath(key));
        return size === null ? null : { size };
      } catch (err) {
        throw toSafeError(err, 'inspect the blob');
      }
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      // Empty ab/ folders are kept on purpose: puts rely on every one of them being there (made at start).
      await unlinkQuiet(blobPath(key)).catch((err: unknown) => {
        throw toSafeError(err, 'delete the blob');
      });
    },

    async *list(): AsyncIterable<string> {
      const dirs = async (dir: string): Promise<string[]> => {
        try {
          return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && HEX2.test(d.name)).map((d) => d.name);
        } catch (err) {
          if (isCode(err, 'ENOENT')) return [];
          throw toSafeError(err, 'list blobs');
        }
      };
      for (const a of await dirs(root)) {
        let names: string[];
        try {
          names = await readdir(join(root, a));
        } catch (err) {
          if (isCode(err, 'ENOENT')) continue;
          throw toSafeError(err, 'list blobs');
        }
        for (const name of names) if (isBlobKey(name) && name.startsWith(a)) yield name;
      }
    },

    async presignGet(key: string): Promise<null> {
      assertBlobKey(key);
      return null;
    },

    async presignStagingPut(uploadId: string): Promise<null> {
      assertUploadId(uploadId);
      return null;
    },

    async writeStaging(uploadId: string, source: Readable, maxBytes: number): Promise<{ size: number; sha256: string }> {
      assertUploadId(uploadId);
      assertByteLimit(maxBytes);
      const hasher = new HashingStream({ maxBytes });
      try {
        await ready();
        const tmp = await writeTemp(tmpDir, source, hasher);
        await moveDurable(tmp, stagingPath(uploadId), syncDir).catch(async (err: unknown) => {
          await unlinkQuiet(tmp).catch(() => undefined);
          throw err;
        });
        return { size: hasher.bytes, sha256: hasher.sha256 };
      } catch (err) {
        throw toSafeError(err, 'store the upload');
      }
    },

    async promoteStaging(uploadId: string, expected: PromoteExpectation): Promise<PutResult> {
      assertUploadId(uploadId);
      assertByteLimit(expected.size, 'size');
      const expectedSha = expected.sha256 === undefined ? undefined : normalizeSha256(expected.sha256);
      const staged = stagingPath(uploadId);
      // Claim the file under a private name first: a concurrent writeStaging for the same id then cannot swap
      // the bytes between hashing and storing them under that hash.
      const claimed = join(tmpDir, `${randomUUID()}.promote`);
      await ready().catch((err: unknown) => {
        throw toSafeError(err, 'promote the upload');
      });
      try {
        if (expected.keepStaging) await linkOrCopy(staged, claimed);
        else await rename(staged, claimed);
      } catch (err) {
        if (isCode(err, 'ENOENT', 'ENOTDIR')) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(err, 'promote the upload');
      }
      try {
        const fh = await open(claimed, 'r');
        let hasher: { bytes: number; sha256: string };
        try {
          const { size } = await fh.stat();
          if (size !== expected.size) throw new BlobSizeMismatchError(expected.size, size);
          // The bytes were hashed as writeStaging received them: reading a large upload again would double its cost.
          if (expected.trusted && expectedSha !== undefined) hasher = { bytes: size, sha256: expectedSha };
          // The stream closes the handle at its end (autoClose: false would keep a reference that fh.close() waits on forever).
          else hasher = await hashStream(fh.createReadStream());
        } finally {
          await fh.close();
        }
        if (hasher.bytes !== expected.size) throw new BlobSizeMismatchError(expected.size, hasher.bytes);
        if (expectedSha !== undefined && hasher.sha256 !== expectedSha) throw new BlobHashMismatchError(expectedSha, hasher.sha256);
        // No fsync here: writeStaging already fsynced the bytes, and commit() makes the rename durable.
        return await commit(claimed, hasher.sha256, hasher.bytes);
      } catch (err) {
        if (expected.keepStaging) await unlinkQuiet(claimed).catch(() => undefined);
        else if (await exists(claimed).catch(() => false)) await restoreStaging(claimed, staged).catch(() => undefined);
        throw toSafeError(err, 'promote the upload');
      }
    },

    async deleteStaging(uploadId: string): Promise<void> {
      assertUploadId(uploadId);
      await unlinkQuiet(stagingPath(uploadId)).catch((err: unknown) => {
        throw toSafeError(err, 'delete the upload');
      });
    },

    async startStagingParts(uploadId: string, size: number): Promise<string> {
      assertUploadId(uploadId);
      assertByteLimit(size, 'size');
      try {
        await ready();
        const fh = await open(partsPath(uploadId), 'w', 0o644);
        try {
          await fh.truncate(size);
        } finally {
          await fh.close();
        }
        return 'local';
      } catch (err) {
        throw toSafeError(err, 'start the upload');
      }
    },

    async presignStagingPart(uploadId: string): Promise<null> {
      assertUploadId(uploadId);
      return null;
    },

    async writeStagingPart(uploadId: string, _token: string, part: PartSpan, source: Readable): Promise<{ etag: string }> {
      assertUploadId(uploadId);
      assertByteLimit(part.offset, 'offset');
      assertByteLimit(part.size, 'size');
      let fh;
      try {
        fh = await open(partsPath(uploadId), 'r+');
      } catch (err) {
        if (isCode(err, 'ENOENT', 'ENOTDIR')) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(err, 'store the part');
      }
      const hasher = new HashingStream({ maxBytes: part.size });
      try {
        // Writing in place is safe to repeat: a part is only counted once the whole of it is on disk (flush =
        // fsync before close), and a resend overwrites exactly the same bytes.
        await pipeline(source, hasher, fh.createWriteStream({ start: part.offset, flush: true }));
      } catch (err) {
        await fh.close().catch(() => undefined);
        throw toSafeError(err, 'store the part');
      }
      if (hasher.bytes !== part.size) throw new BlobSizeMismatchError(part.size, hasher.bytes);
      return { etag: hasher.sha256 };
    },

    async completeStagingParts(uploadId: string): Promise<void> {
      assertUploadId(uploadId);
      try {
        await moveDurable(partsPath(uploadId), stagingPath(uploadId), syncDir);
      } catch (err) {
        // Joined already (a finish that is tried again): the staged upload is there.
        if (isCode(err, 'ENOENT', 'ENOTDIR') && (await exists(stagingPath(uploadId)))) return;
        if (isCode(err, 'ENOENT', 'ENOTDIR')) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(err, 'join the parts');
      }
    },

    async abortStagingParts(uploadId: string): Promise<void> {
      assertUploadId(uploadId);
      await unlinkQuiet(partsPath(uploadId)).catch((err: unknown) => {
        throw toSafeError(err, 'delete the upload');
      });
    },

    async sweepTemp(olderThanMs: number): Promise<number> {
      assertByteLimit(olderThanMs, 'olderThanMs');
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      let names: string[];
      try {
        names = await readdir(tmpDir);
      } catch (err) {
        if (isCode(err, 'ENOENT')) return 0;
        throw toSafeError(err, 'sweep temporary files');
      }
      for (const name of names) {
        const file = join(tmpDir, name);
        try {
          // mtime, not ctime: a slow upload that is still writing keeps touching it and is left alone.
          if ((await stat(file)).mtimeMs < cutoff) {
            await unlinkQuiet(file);
            removed++;
          }
        } catch (err) {
          if (!isCode(err, 'ENOENT')) throw toSafeError(err, 'sweep temporary files');
        }
      }
      return removed;
    },
  };
}
