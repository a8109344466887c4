import { createHash, hash, type Hash } from 'node:crypto';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobHashMismatchError, BlobTooLargeError } from './errors.js';

/**
 * What `put` accepts. Strings are stored as UTF-8.
 *
 * @example
 * const source: BlobSource = fs.createReadStream('a.pdf');
 */
export type BlobSource = Readable | Buffer | Uint8Array | string;

/**
 * A pass-through stream that hashes (sha256) and counts what flows through it, and fails with
 * `BlobTooLargeError` as soon as more than `maxBytes` have been seen — before the excess reaches storage, so an
 * oversized upload is cut off early instead of being written and measured afterwards.
 *
 * @example
 * const hasher = new HashingStream({ maxBytes: 1024 });
 * await pipeline(source, hasher, sink);
 * console.log(hasher.bytes, hasher.sha256);
 */
export class HashingStream extends Transform {
  /** Bytes seen so far. */
  bytes = 0;
  readonly #maxBytes: number | undefined;
  readonly #hash: Hash = createHash('sha256');
  #digest: string | undefined;

  constructor(opts: { maxBytes?: number | undefined } = {}) {
    super();
    this.#maxBytes = opts.maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.#maxBytes !== undefined && this.bytes > this.#maxBytes) {
      callback(new BlobTooLargeError(this.#maxBytes));
      return;
    }
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.#digest = this.#hash.digest('hex');
    callback();
  }

  /** The lowercase hex sha256 of everything that passed; only available once the stream has ended. */
  get sha256(): string {
    if (this.#digest === undefined) throw new Error('HashingStream: the stream has not ended yet');
    return this.#digest;
  }
}

/**
 * The lowercase hex sha256 of in-memory data (strings as UTF-8).
 *
 * @example
 * sha256Hex('hello'); // '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'
 */
export function sha256Hex(data: Buffer | Uint8Array | string): string {
  // One call, no Hash object: every small upload is hashed here (issue 30).
  return hash('sha256', data, 'hex');
}

/**
 * The bytes of an in-memory source, or null for a stream. Lets a store hash small writes up front and skip
 * the transfer entirely when the blob already exists.
 *
 * @example
 * const buf = inMemory(source); if (buf && buf.length > maxBytes) throw new BlobTooLargeError(maxBytes);
 */
export function inMemory(source: BlobSource): Buffer | null {
  if (source instanceof Readable) return null;
  if (typeof source === 'string') return Buffer.from(source, 'utf8');
  if (source instanceof Uint8Array) {
    return Buffer.isBuffer(source) ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  }
  throw new TypeError('put() accepts a Readable, Buffer, Uint8Array or string');
}

/**
 * Checks an in-memory source against the put options, before anything is written.
 *
 * @example
 * const sha256 = checkInMemory(buf, opts.maxBytes, expected);
 */
export function checkInMemory(buf: Buffer, maxBytes: number | undefined, expectedSha256: string | undefined): string {
  if (maxBytes !== undefined && buf.length > maxBytes) throw new BlobTooLargeError(maxBytes);
  const sha256 = sha256Hex(buf);
  if (expectedSha256 !== undefined && sha256 !== expectedSha256) throw new BlobHashMismatchError(expectedSha256, sha256);
  return sha256;
}

/**
 * Turns any accepted source into a byte stream. In-memory inputs become a one-chunk stream so every store has
 * a single code path (hash, limit, write) whatever the caller passed.
 *
 * @example
 * toReadable('hello').pipe(process.stdout);
 */
export function toReadable(source: BlobSource): Readable {
  const buf = inMemory(source);
  return buf === null ? (source as Readable) : Readable.from([buf], { objectMode: false });
}

/**
 * Reads a stream to its end, returning its size and sha256 without keeping the bytes.
 *
 * @example
 * const { bytes, sha256 } = await hashStream(fs.createReadStream(file));
 */
export async function hashStream(source: Readable): Promise<{ bytes: number; sha256: string }> {
  const hasher = new HashingStream();
  await pipeline(source, hasher, new Writable({ write: (_chunk, _enc, cb) => cb() }));
  return { bytes: hasher.bytes, sha256: hasher.sha256 };
}

/**
 * Reads the start of a stream, at most `limit` bytes. When the stream ends within them, returns its whole
 * content (`whole`); otherwise returns a stream of everything (`rest`: the bytes already read, then the rest of
 * the source), so a caller can take a cheap path for small uploads and stream large ones as before. Past
 * `maxBytes` it fails with `BlobTooLargeError` at once, and like `pipeline` it destroys the source on failure.
 *
 * @example
 * const head = await readHead(req, 256 * 1024, maxBytes);
 * if (head.whole) await writeTempBuffer(tmpDir, head.whole); else await writeTemp(tmpDir, head.rest, hasher);
 */
export async function readHead(
  source: Readable,
  limit: number,
  maxBytes: number | undefined,
): Promise<{ whole: Buffer; rest?: never } | { whole?: never; rest: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array | string>;
  const head: Buffer[] = [];
  let bytes = 0;
  try {
    while (bytes <= limit) {
      const r = await it.next();
      if (r.done) return { whole: head.length === 1 ? head[0]! : Buffer.concat(head, bytes) };
      const chunk = asBuffer(r.value);
      bytes += chunk.length;
      if (maxBytes !== undefined && bytes > maxBytes) throw new BlobTooLargeError(maxBytes);
      head.push(chunk);
    }
  } catch (err) {
    await it.return?.().catch(() => undefined);
    throw err;
  }
  async function* all(): AsyncGenerator<Buffer> {
    let done = false;
    try {
      yield* head.splice(0);
      for (let r = await it.next(); !r.done; r = await it.next()) yield asBuffer(r.value);
      done = true;
    } finally {
      // Stopped early (a failed write downstream): the source is destroyed, as pipeline would.
      if (!done) await it.return?.().catch(() => undefined);
    }
  }
  return { rest: Readable.from(all(), { objectMode: false }) };
}

/** A chunk of a byte stream as a Buffer (strings as UTF-8; a plain Uint8Array shares its memory). */
function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
