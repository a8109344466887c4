/**
 * Errors of the blob store. Every message is safe to show to a user: it never contains a host path, a bucket
 * name or an internal key layout, because the core passes these messages through to HTTP, MCP and CLI doors.
 * Underlying system or SDK errors are kept in `cause` for logs only.
 */

/**
 * Base class of every error the blob store throws on purpose, so the core can map them with one `instanceof`.
 *
 * @example
 * try { await store.read(key); } catch (err) { if (err instanceof BlobError) log.warn(err.message); }
 */
export class BlobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The input was larger than the `maxBytes` the caller allowed. Nothing was stored.
 *
 * @example
 * await expect(store.put(big, { maxBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError);
 */
export class BlobTooLargeError extends BlobError {
  readonly limit: number;
  constructor(limit: number) {
    super(`Content is larger than the limit of ${limit} bytes`);
    this.limit = limit;
  }
}

/**
 * The blob (or staged upload) does not exist.
 *
 * @example
 * if (err instanceof BlobNotFoundError) return reply.code(404).send();
 */
export class BlobNotFoundError extends BlobError {
  constructor(what: 'Blob' | 'Staged upload' = 'Blob') {
    super(`${what} not found`);
  }
}

/**
 * The content's sha256 differs from the one the caller expected. Nothing was stored.
 *
 * @example
 * await store.put(data, { expectedSha256: clientHash }); // may throw BlobHashMismatchError
 */
export class BlobHashMismatchError extends BlobError {
  readonly expected: string;
  readonly actual: string;
  constructor(expected: string, actual: string, message = 'Content hash does not match the expected sha256') {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A staged upload's size differs from the size announced when it was reserved.
 *
 * @example
 * await store.promoteStaging(id, { size: reserved }); // may throw BlobSizeMismatchError
 */
export class BlobSizeMismatchError extends BlobError {
  readonly expected: number;
  readonly actual: number;
  constructor(expected: number, actual: number) {
    super(`Uploaded size ${actual} does not match the expected ${expected} bytes`);
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A blob key, sha256 or upload id is malformed. Raised before any storage access, so no key can point outside
 * the store.
 *
 * @example
 * await expect(store.get('../../etc/passwd')).rejects.toBeInstanceOf(InvalidBlobKeyError);
 */
export class InvalidBlobKeyError extends BlobError {
  constructor(what: 'blob key' | 'sha256' | 'upload id') {
    super(`Invalid ${what}`);
  }
}

/**
 * A byte range that is malformed (negative, not an integer, `end < start`) or starts at or beyond the end of
 * the blob (HTTP 416). An `end` past the last byte is not an error: it is clamped, as in HTTP.
 *
 * @example
 * if (err instanceof BlobRangeError) return reply.code(416).send();
 */
export class BlobRangeError extends BlobError {
  constructor(message = 'Requested range is not satisfiable') {
    super(message);
  }
}

/**
 * The storage back end failed (disk full, permission denied, object storage unreachable...). `code` carries the
 * errno code (`ENOSPC`, `EACCES`) or the S3 error name, so the core can map "disk full" to its own error.
 *
 * @example
 * if (err instanceof BlobStorageError && err.code === 'ENOSPC') throw new StoaError('quota_exceeded', ...);
 */
export class BlobStorageError extends BlobError {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Turns an unexpected error into one that is safe to show: our own errors pass through, anything carrying a
 * system or SDK code (whose message may contain a host path) is wrapped, keeping the original as `cause`.
 * Other errors (for example the caller's own source stream failing) pass through unchanged.
 *
 * @example
 * catch (err) { throw toSafeError(err, 'write'); }
 */
export function toSafeError(err: unknown, operation: string): Error {
  if (err instanceof BlobError) return err;
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; syscall?: unknown; path?: unknown; $metadata?: unknown };
    if (typeof e.syscall === 'string' || typeof e.path === 'string') {
      const code = typeof e.code === 'string' ? e.code : undefined;
      return new BlobStorageError(`Blob storage could not ${operation}${code ? ` (${code})` : ''}`, code, { cause: err });
    }
    if (e.$metadata !== undefined) {
      return new BlobStorageError(`Object storage could not ${operation} (${e.name})`, e.name, { cause: err });
    }
    return err;
  }
  return new BlobStorageError(`Blob storage could not ${operation}`, undefined, { cause: err });
}
