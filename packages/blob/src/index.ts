/**
 * `@stoa/blob` — the BlobStore port (DESIGN "Storage"): immutable blobs addressed by sha256, on the local disk
 * or in an S3-compatible bucket, plus the staging area for direct large uploads.
 *
 * @example
 * import { createFsBlobStore, openS3BlobStore, parseS3Url } from '@stoa/blob';
 * const s3 = parseS3Url(process.env.STOA_STORAGE_URL ?? '');
 * const store = s3 ? await openS3BlobStore({ ...s3, endpoint: process.env.STOA_S3_ENDPOINT })
 *                  : createFsBlobStore({ root: './stoa-data/blobs' });
 */
import type { BlobStore } from './types.js';
import type { S3BlobStoreOptions } from './s3-store.js';
export type { BlobStore, PutOptions, PutResult, PresignedPut } from './types.js';
export type { ByteRange } from './range.js';
export type { BlobSource } from './hashing-stream.js';
export { createFsBlobStore, type FsBlobStore } from './fs-store.js';
export type { S3BlobStore, S3BlobStoreOptions } from './s3-store.js';

/**
 * The S3 store, loaded on first use: the AWS SDK is large, and a command on the local disk (the default) should
 * not pay for loading it. `@stoa/blob/s3` exports `createS3BlobStore` directly.
 */
export async function openS3BlobStore(opts: S3BlobStoreOptions): Promise<BlobStore> {
  const { createS3BlobStore } = await import('./s3-store.js');
  return createS3BlobStore(opts);
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
