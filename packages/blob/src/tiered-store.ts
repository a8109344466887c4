import { Readable } from 'node:stream';
import { toSafeError } from './errors.js';
import { checkInMemory, inMemory, readHead, type BlobSource } from './hashing-stream.js';
import { assertBlobKey, assertByteLimit, normalizeSha256 } from './keys.js';
import { resolveRange, type ByteRange } from './range.js';
import type { BlobStore, PutOptions, PutResult } from './types.js';

/**
 * Where the tiered store keeps small blobs: a database table (`@stoa/db`'s `inlineBlobs`). Each call stands on
 * its own (no transaction of the caller's), see {@link createTieredBlobStore}.
 *
 * @example
 * const table: InlineBlobTable = db.inlineBlobs;
 */
export interface InlineBlobTable {
  get(key: string): Promise<Buffer | null>;
  size(key: string): Promise<number | null>;
  /** Stores the bytes; false when it cannot now (they then go to the blob store). */
  insert(key: string, content: Buffer): Promise<boolean>;
  delete(key: string): Promise<void>;
  keysAfter(after: string, limit: number): Promise<string[]>;
  which(keys: string[]): Promise<Set<string>>;
}

/** The bytes behind each stream `get` made from a row in memory (weakly: gone with the stream). */
const held = new WeakMap<Readable, Buffer>();

/**
 * The bytes a stream from `get` will deliver, when the store already holds them all in memory (a small blob kept
 * in the database), else null. A server may then write them in one piece, headers included, instead of piping the
 * stream (issue 30); the stream is then to be destroyed unread.
 *
 * @example
 * const bytes = heldBytes(await blobs.get(key)); // a Buffer for a small blob, null for one on disk
 */
export function heldBytes(stream: Readable): Buffer | null {
  return held.get(stream) ?? null;
}

/** Keys listed or checked per database statement. */
const PAGE = 500;

/**
 * A blob store that keeps blobs up to `maxInlineBytes` in a database table and the rest in `store`
 * (docs/decisions/0021-small-blobs-in-the-database.md). Callers see one store: the same sha256 keys and the same
 * behaviour of every method (the contract suite runs against it). A small blob then costs an insert that the
 * database commits without an fsync (SQLite WAL with `synchronous = NORMAL`, PostgreSQL with asynchronous
 * commit) instead of a file's fsync and its folder's; the commit of the version that references it makes it
 * durable, since the database's log keeps the insert before that commit.
 *
 * Reads look in the table first, then in `store`, so blobs written before (or by a store with a lower threshold)
 * stay readable; a blob in both places is listed once and deleted from both. Staged and multipart uploads, and
 * every blob over the threshold, go to `store` untouched. An inline blob has no presigned URL: the server serves it.
 *
 * @example
 * const blobs = createTieredBlobStore({ store: createFsBlobStore({ root }), table: db.inlineBlobs, maxInlineBytes: 64 * 1024 });
 */
export function createTieredBlobStore(opts: { store: BlobStore; table: InlineBlobTable; maxInlineBytes: number }): BlobStore {
  const { store, table, maxInlineBytes } = opts;
  const inline = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw toSafeError(err, what);
    }
  };
  const tiered: BlobStore = {
    kind: store.kind,

    async put(source: BlobSource, putOpts: PutOptions = {}): Promise<PutResult> {
      assertByteLimit(putOpts.maxBytes);
      const expected = putOpts.expectedSha256 === undefined ? undefined : normalizeSha256(putOpts.expectedSha256);
      let buf = inMemory(source);
      let rest: Readable | undefined;
      if (buf === null) {
        // Read as far as the threshold: a stream that ends there is a small blob, anything longer goes on to the
        // store with the bytes already read in front.
        const head = await readHead(source as Readable, maxInlineBytes, putOpts.maxBytes);
        buf = head.whole ?? null;
        rest = head.rest;
      }
      if (buf === null || buf.length > maxInlineBytes) return store.put(rest ?? buf!, putOpts);
      const sha256 = checkInMemory(buf, putOpts.maxBytes, expected);
      if (!(await inline('store the content', () => table.insert(sha256, buf)))) return store.put(buf, putOpts);
      return { key: sha256, size: buf.length, sha256 };
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      assertBlobKey(key);
      const bytes = await inline('read the blob', () => table.get(key));
      if (bytes === null) return store.get(key, range);
      const r = range === undefined ? { start: 0, end: bytes.length - 1 } : resolveRange(range, bytes.length);
      // One push of the bytes in memory (Readable.from would hand them over through an async iterator), made when
      // the stream is first read: a server that sends the held bytes itself (heldBytes) lets it go unread, at no cost.
      const slice = bytes.subarray(r.start, r.end + 1);
      const out = new Readable({
        read() {
          if (slice.length > 0) this.push(slice);
          this.push(null);
        },
      });
      held.set(out, slice);
      return out;
    },

    async read(key: string): Promise<Buffer> {
      assertBlobKey(key);
      return (await inline('read the blob', () => table.get(key))) ?? store.read(key);
    },

    async stat(key: string): Promise<{ size: number } | null> {
      assertBlobKey(key);
      const size = await inline('inspect the blob', () => table.size(key));
      return size === null ? store.stat(key) : { size };
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      await inline('delete the blob', () => table.delete(key));
      await store.delete(key);
    },

    async *list(): AsyncIterable<string> {
      for (let after = ''; ;) {
        const keys = await inline('list blobs', () => table.keysAfter(after, PAGE));
        yield* keys;
        if (keys.length < PAGE) break;
        after = keys[keys.length - 1]!;
      }
      // The store's keys, less those also kept inline (listed above already).
      let batch: string[] = [];
      const unlisted = async function* (): AsyncGenerator<string> {
        const both = await inline('list blobs', () => table.which(batch));
        yield* batch.filter((k) => !both.has(k));
        batch = [];
      };
      for await (const key of store.list()) {
        batch.push(key);
        if (batch.length >= PAGE) yield* unlisted();
      }
      yield* unlisted();
    },

    async presignGet(key, expiresSeconds, as) {
      assertBlobKey(key);
      if ((await inline('inspect the blob', () => table.size(key))) !== null) return null;
      return store.presignGet(key, expiresSeconds, as);
    },

    presignStagingPut: (uploadId, size, expiresSeconds) => store.presignStagingPut(uploadId, size, expiresSeconds),
    writeStaging: (uploadId, source, maxBytes) => store.writeStaging(uploadId, source, maxBytes),
    promoteStaging: (uploadId, expected) => store.promoteStaging(uploadId, expected),
    deleteStaging: (uploadId) => store.deleteStaging(uploadId),
    startStagingParts: (uploadId, size) => store.startStagingParts(uploadId, size),
    presignStagingPart: (uploadId, token, part, expiresSeconds) => store.presignStagingPart(uploadId, token, part, expiresSeconds),
    writeStagingPart: (uploadId, token, part, source) => store.writeStagingPart(uploadId, token, part, source),
    completeStagingParts: (uploadId, token, parts) => store.completeStagingParts(uploadId, token, parts),
    abortStagingParts: (uploadId, token) => store.abortStagingParts(uploadId, token),
    close: async () => store.close?.(),
  };
  if (store.sweepTemp) tiered.sweepTemp = (olderThanMs) => store.sweepTemp!(olderThanMs);
  return tiered;
}
