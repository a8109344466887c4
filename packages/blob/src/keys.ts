import { InvalidBlobKeyError } from './errors.js';

const BLOB_KEY = /^[0-9a-f]{64}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * True for a well-formed blob key: a sha256 in 64 lowercase hex digits. Keys are the only thing that becomes
 * part of a storage path, and this alphabet cannot express `/`, `..` or a drive letter.
 *
 * @example
 * isBlobKey('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'); // true
 */
export function isBlobKey(key: unknown): key is string {
  return typeof key === 'string' && BLOB_KEY.test(key);
}

/**
 * Throws `InvalidBlobKeyError` unless `key` is a well-formed blob key.
 *
 * @example
 * assertBlobKey(row.blob_key);
 */
export function assertBlobKey(key: unknown): asserts key is string {
  if (!isBlobKey(key)) throw new InvalidBlobKeyError('blob key');
}

/**
 * Throws `InvalidBlobKeyError` unless `id` matches `[A-Za-z0-9_-]{1,64}`.
 *
 * @example
 * assertUploadId('upl_x8Kd02');
 */
export function assertUploadId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !UPLOAD_ID.test(id)) throw new InvalidBlobKeyError('upload id');
}

/**
 * Validates a caller-supplied sha256 (clients often send upper case hex) and returns it in key form.
 *
 * @example
 * normalizeSha256('E3B0C442...B855'); // 'e3b0c442...b855'
 */
export function normalizeSha256(sha256: unknown): string {
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) throw new InvalidBlobKeyError('sha256');
  return sha256.toLowerCase();
}

/**
 * Validates an optional byte limit: a non-negative safe integer, or undefined for "no limit".
 *
 * @example
 * assertByteLimit(opts.maxBytes);
 */
export function assertByteLimit(limit: unknown, name = 'maxBytes'): asserts limit is number | undefined {
  if (limit === undefined) return;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`${name} must be a non-negative integer`);
  }
}
