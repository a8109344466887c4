import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BlobStore } from '../types.js';

/**
 * Collects a stream into one Buffer.
 *
 * @example
 * const bytes = await collect(await store.get(key));
 */
export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/**
 * Every key of `store.list()`, sorted.
 *
 * @example
 * expect(await listAll(store)).toEqual([key]);
 */
export async function listAll(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of store.list()) keys.push(k);
  return keys.sort();
}

/**
 * A stream of `size` random bytes in `chunk`-sized pieces, produced on demand (never held as a whole);
 * `onProduced` sees the running total; `sha256()` is valid once the stream has ended.
 *
 * @example
 * const { stream, sha256 } = randomStream(64 << 20);
 * expect((await store.put(stream)).key).toBe(sha256());
 */
export function randomStream(size: number, chunk = 256 * 1024, onProduced?: (bytes: number) => void): { stream: Readable; sha256(): string } {
  const hash = createHash('sha256');
  let produced = 0;
  const stream = new Readable({
    read() {
      if (produced >= size) return void this.push(null);
      const c = randomBytes(Math.min(chunk, size - produced));
      hash.update(c);
      produced += c.length;
      onProduced?.(produced);
      this.push(c);
    },
  });
  let digest: string | undefined;
  return { stream, sha256: () => (digest ??= hash.digest('hex')) };
}

/**
 * The engine's `gc()`, exposed at run time so the suite needs no `--expose-gc` flag in the runner config.
 *
 * @example
 * forceGc()(); const live = process.memoryUsage().arrayBuffers;
 */
export function forceGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * A stream that yields `good` bytes and then fails, like a client that disconnects mid-upload.
 *
 * @example
 * await expect(store.put(failingStream(1000))).rejects.toThrow('client went away');
 */
export function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(good));
      } else this.destroy(new Error('client went away'));
    },
  });
}
