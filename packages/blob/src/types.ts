import type { Readable } from 'node:stream';
import type { BlobSource } from './hashing-stream.js';
import type { ByteRange } from './range.js';

/**
 * The result of storing content. `key === sha256` (64 lowercase hex digits): blobs are content-addressed, so
 * equal content is stored once and a key never changes meaning.
 *
 * @example
 * const { key, size } = await store.put('hello'); // key '2cf24dba...', size 5
 */
export interface PutResult {
  key: string;
  size: number;
  sha256: string;
}

/**
 * Options of {@link BlobStore.put}.
 *
 * @example
 * await store.put(req.raw, { maxBytes: limits.uploadBytes, expectedSha256: req.headers['x-content-sha256'] });
 */
export interface PutOptions {
  /** Fail with `BlobTooLargeError` (and store nothing) as soon as the input exceeds this many bytes. */
  maxBytes?: number | undefined;
  /** Fail with `BlobHashMismatchError` (and store nothing) unless the content has this sha256 (any hex case). */
  expectedSha256?: string | undefined;
}

/**
 * What {@link BlobStore.presignStagingPut} returns: where and how the client sends the bytes.
 *
 * @example
 * await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: file });
 */
export interface PresignedPut {
  /** Send the bytes with `PUT` to this URL. The signature binds `Content-Length` to the reserved size. */
  url: string;
  /** Headers the client must send besides `Content-Length` (which HTTP clients set from the body). */
  headers: Record<string, string>;
}

/**
 * One part of a staged upload sent in parts: where it sits in the whole and how long it is (every part but the
 * last is the upload's part size).
 *
 * @example
 * const part: PartSpan = { number: 2, offset: 16 << 20, size: 16 << 20 };
 */
export interface PartSpan {
  /** 1-based, as in S3 (at most 10,000). */
  number: number;
  offset: number;
  size: number;
}

/**
 * The blob storage port: immutable, content-addressed blobs plus a staging area for direct large uploads
 * (F8, B8). Implemented by {@link createFsBlobStore} and {@link createS3BlobStore}; both pass the same
 * contract suite (`runBlobContract`).
 *
 * Deleting is never done inline by the core: a sweeper deletes blobs that no committed row references.
 *
 * @example
 * const store: BlobStore = createFsBlobStore({ root: './stoa-data/blobs' });
 * const { key } = await store.put(req.raw, { maxBytes: 25 * 1024 * 1024 });
 * (await store.get(key, { start: 0, end: 99 })).pipe(reply.raw);
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /**
   * Streams `source` into an immutable content-addressed blob, hashing while streaming (the input is never
   * held in memory as a whole). On `BlobTooLargeError` / `BlobHashMismatchError` nothing is left behind. When
   * a blob with the same hash exists, the new copy is discarded and the existing key returned.
   */
  put(source: BlobSource, opts?: PutOptions): Promise<PutResult>;
  /** The blob's bytes, optionally a range (inclusive `end`; past-the-end `end` is clamped). Rejects with
   *  `BlobNotFoundError`, or `BlobRangeError` when `start` is at or beyond the end. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The whole blob in memory: only for small reads (text previews, indexing). */
  read(key: string): Promise<Buffer>;
  /** `{ size }`, or null when the blob does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Idempotent: deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob key, in no particular order (for the sweeper). Staging and temporary objects are not listed. */
  list(): AsyncIterable<string>;
  /** s3: a presigned PUT URL for the staging object of `uploadId`; fs: null (the server receives the bytes and
   *  calls `writeStaging`). */
  presignStagingPut(uploadId: string, size: number, expiresSeconds: number): Promise<PresignedPut | null>;
  /** s3: a presigned GET URL of a blob, answered as an attachment named `filename` with `contentType`; fs: null
   *  (the server serves the bytes behind a link it signs itself). */
  presignGet(key: string, expiresSeconds: number, as: { filename: string; contentType: string }): Promise<string | null>;
  /** Writes the staging object of `uploadId` (replacing an earlier one), failing with `BlobTooLargeError` past
   *  `maxBytes`. The staging object appears whole or not at all. */
  writeStaging(uploadId: string, source: Readable, maxBytes: number): Promise<{ size: number; sha256: string }>;
  /** Turns a finished staged upload into a blob: verifies size (and sha256 if given) while hashing, stores it
   *  under its hash and removes the staging object. On a mismatch the staging object is left for
   *  `deleteStaging`. Rejects with `BlobSizeMismatchError`, `BlobHashMismatchError` or `BlobNotFoundError`.
   *  `trusted`: the sha256 is the one this store's own `writeStaging` computed, and the caller made sure no
   *  other write to the upload came after it; the local disk then skips reading the file again (object storage,
   *  where clients upload through presigned URLs, always verifies). */
  promoteStaging(uploadId: string, expected: PromoteExpectation): Promise<PutResult>;
  /** Idempotent. */
  deleteStaging(uploadId: string): Promise<void>;
  /**
   * Starts a staged upload sent in parts, so an interrupted transfer resumes where it stopped (a failed part is
   * sent again, alone). Returns the store's token for it (s3: the multipart upload's id). The parts are joined by
   * `completeStagingParts` into the staging object of `uploadId`, which `promoteStaging` then verifies as usual.
   */
  startStagingParts(uploadId: string, size: number): Promise<string>;
  /** s3: a presigned PUT URL for one part, bound to its size; fs: null (the server receives it: `writeStagingPart`). */
  presignStagingPart(uploadId: string, token: string, part: PartSpan, expiresSeconds: number): Promise<PresignedPut | null>;
  /** Stores exactly `part.size` bytes of one part (replacing an earlier send of it); `BlobTooLargeError` past
   *  that, `BlobSizeMismatchError` short of it. Returns the part's etag, which `completeStagingParts` needs. */
  writeStagingPart(uploadId: string, token: string, part: PartSpan, source: Readable): Promise<{ etag: string }>;
  /** Joins the parts (every one of them, in order) into the staging object of `uploadId`. */
  completeStagingParts(uploadId: string, token: string, parts: { number: number; etag: string }[]): Promise<void>;
  /** Drops the parts sent so far; idempotent. */
  abortStagingParts(uploadId: string, token: string): Promise<void>;
  /** Removes temporary objects of interrupted writes older than `olderThanMs`; returns how many it removed. */
  sweepTemp?(olderThanMs: number): Promise<number>;
  close?(): Promise<void>;
}

/** What a staged upload must be to become a blob (see {@link BlobStore.promoteStaging}). */
export interface PromoteExpectation {
  size: number;
  sha256?: string | undefined;
  /** The sha256 is the one this store's writeStaging computed (see promoteStaging). */
  trusted?: boolean;
  /** Leave the staged upload where it is (the caller deletes it once the blob is committed), so a crash between
   *  promoting and committing cannot lose the only copy of the bytes: promoting again finds them (issue 27). */
  keepStaging?: boolean;
}
