import { createHash } from 'node:crypto';

/** Chunks of the crash-safety fixture: deterministic, so the parent knows the hash the child was writing. */
const CRASH_CHUNK_BYTES = 1024 * 1024;
export const CRASH_CHUNKS = 16;
/** The child stalls after this many chunks and waits to be killed. */
export const CRASH_STALL_AFTER = 8;

/**
 * Chunk `i` of the fixture (1 MiB).
 *
 * @example
 * const all = Buffer.concat(Array.from({ length: CRASH_CHUNKS }, (_, i) => crashChunk(i)));
 */
export function crashChunk(i: number): Buffer {
  const seed = createHash('sha256').update(`stoa-crash-${i}`).digest();
  const out = Buffer.allocUnsafe(CRASH_CHUNK_BYTES);
  for (let o = 0; o < out.length; o += seed.length) seed.copy(out, o);
  return out;
}
