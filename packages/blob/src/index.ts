/**
 * `@stoa/blob` — the BlobStore port (docs/architecture.md "Storage"): immutable blobs addressed by sha256, on the local disk
 * or in an S3-compatible bucket, plus the staging area for direct large uploads.
 *
 * @example
 * import { createFsBlobStore, createS3BlobStore, parseS3Url } from '@stoa/blob';
 * const s3 = parseS3Url(process.env.STOA_STORAGE_URL ?? '');
 * const store = s3 ? createS3BlobStore({ ...s3, endpoint: process.env.STOA_S3_ENDPOINT })
 *                  : createFsBlobStore({ root: './stoa-data/blobs' });
 */
import type { BlobStore } from './types.js';
import type { S3BlobStoreOptions } from './s3-store.js';
import { createLazyS3BlobStore, type LazyS3BlobStore } from './s3-lazy.js';
export type { BlobStore, PartSpan, PutOptions, PutResult, PresignedPut, PromoteExpectation } from './types.js';
export type { ByteRange } from './range.js';
export type { BlobSource } from './hashing-stream.js';
/** Reads the start of an upload (a small one whole): the file mutator sniffs a type from bytes it holds (issue 30). */
export { readHead } from './hashing-stream.js';
export { createFsBlobStore, type FsBlobStore } from './fs-store.js';
export { createGroupSync } from './fs-group-sync.js';
export { createTieredBlobStore, heldBytes, type InlineBlobTable } from './tiered-store.js';
export type { S3BlobStore, S3BlobStoreOptions } from './s3-store.js';
export type { LazyS3BlobStore } from './s3-lazy.js';

/**
 * The S3 store. This entry point never imports the AWS SDK at load time: the store loads it on its first
 * operation. `@stoa/blob/s3` exports the eager `createS3BlobStore`, whose store also exposes `.client`.
 *
 * @example
 * const store = createS3BlobStore({ bucket: 'stoa', prefix: 'prod', endpoint: 'http://minio:9000' });
 */
export function createS3BlobStore(opts: S3BlobStoreOptions): LazyS3BlobStore {
  return createLazyS3BlobStore(opts);
}

/**
 * Like {@link createS3BlobStore}, but the SDK is loaded before it resolves, so a broken installation fails at
 * start-up rather than on the first request.
 *
 * @example
 * const store = await openS3BlobStore({ ...parseS3Url(process.env.STOA_STORAGE_URL!)!, region: 'eu-west-1' });
 */
export async function openS3BlobStore(opts: S3BlobStoreOptions): Promise<BlobStore> {
  const { createS3BlobStore: eager } = await import('./s3-store.js');
  return eager(opts);
}
export type { UploadTuning } from './s3-upload.js';
export { parseS3Url } from './s3-url.js';
export { isBlobKey, normalizeSha256 } from './keys.js';
export { sha256Hex } from './hashing-stream.js';
export {
  BlobError,
  BlobTooLargeError,
  BlobNotFoundError,
  BlobHashMismatchError,
  BlobSizeMismatchError,
  BlobRangeError,
  BlobStorageError,
  InvalidBlobKeyError,
} from './errors.js';
