import { Transform, type TransformCallback } from 'node:stream';
import { BlobRangeError } from './errors.js';

/**
 * An HTTP-Range style byte range: `end` is inclusive and optional (to the end of the blob).
 *
 * @example
 * await store.get(key, { start: 0, end: 1023 }); // the first KiB, like `Range: bytes=0-1023`
 */
export interface ByteRange {
  start: number;
  end?: number | undefined;
}

/**
 * Checks the shape of a range before any I/O: non-negative safe integers and `end >= start`.
 *
 * @example
 * assertRangeShape({ start: 10, end: 19 });
 */
export function assertRangeShape(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new BlobRangeError('Range start must be a non-negative integer');
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) {
    throw new BlobRangeError('Range end must be an integer not less than start');
  }
}

/**
 * Resolves a range against a blob size the way HTTP does: a start at or past the end is unsatisfiable (also for
 * an empty blob), an end past the last byte is clamped.
 *
 * @example
 * resolveRange({ start: 5 }, 10); // { start: 5, end: 9 }
 */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  assertRangeShape(range);
  if (range.start >= size) throw new BlobRangeError();
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/**
 * Skips `skip` bytes, then passes `length` bytes and drops the rest. Used when an S3-compatible server ignores
 * or widens a Range header (HTTP allows a server to answer a range request with the whole body).
 *
 * @example
 * response.pipe(sliceStream(100, 10)); // bytes 100..109 of the response
 */
export function sliceStream(skip: number, length: number): Transform {
  let toSkip = skip;
  let left = length;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback) {
      let c = chunk;
      if (toSkip > 0) {
        const n = Math.min(toSkip, c.length);
        toSkip -= n;
        c = c.subarray(n);
      }
      if (left > 0 && c.length > 0) {
        const out = c.subarray(0, left);
        left -= out.length;
        callback(null, out);
        return;
      }
      callback();
    },
  });
}
