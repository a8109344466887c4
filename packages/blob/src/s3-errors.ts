// Classifies AWS SDK errors by name and HTTP status: S3-compatible stores disagree on names (NoSuchKey vs
// NotFound for HEAD, which has no body), so the status is the fallback.

type SdkError = { name?: string; $metadata?: { httpStatusCode?: number } };

/**
 * The HTTP status of an SDK error, if any.
 *
 * @example
 * if (status(err) === 416) throw new BlobRangeError();
 */
export const status = (err: unknown): number | undefined => (err as SdkError)?.$metadata?.httpStatusCode;

/**
 * The S3 error name (`NoSuchKey`, `InvalidRange`...), if any.
 *
 * @example
 * if (errName(err) === 'NotImplemented') return 0;
 */
export const errName = (err: unknown): string | undefined => (err as SdkError)?.name;

/**
 * True when the object (not the bucket) is missing.
 *
 * @example
 * catch (err) { if (isNotFound(err)) return null; throw err; }
 */
export const isNotFound = (err: unknown): boolean =>
  errName(err) !== 'NoSuchBucket' && (errName(err) === 'NoSuchKey' || errName(err) === 'NotFound' || status(err) === 404);

/**
 * True when an If-Match / x-amz-copy-source-if-match condition failed (the object changed).
 *
 * @example
 * catch (err) { if (isPreconditionFailed(err)) throw new BlobStorageError('changed', 'StagingChanged'); }
 */
export const isPreconditionFailed = (err: unknown): boolean => errName(err) === 'PreconditionFailed' || status(err) === 412;
