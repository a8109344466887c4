// Child process of the fs crash-safety test: 16 writers put distinct blobs into the store at argv[2] without
// end — small ones from memory, streamed ones of a few KB and streamed ones past the in-memory limit — and print
// "ok <key>" for each put the store acknowledged, until the parent SIGKILLs the process in the middle of them.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createFsBlobStore } from '../fs-store.js';

const root = process.argv[2];
if (!root) throw new Error('usage: crash-many-child <root>');
const store = createFsBlobStore({ root });
const sizes = [4096, 70_000, 300_000];
async function writer(w: number): Promise<never> {
  for (let i = 0; ; i++) {
    const bytes = randomBytes(sizes[(w + i) % sizes.length]!);
    // Every third put is a Buffer, the others arrive as streams in 16 KB chunks, as an HTTP body does.
    const source =
      i % 3 === 0 ? bytes : Readable.from(Array.from({ length: Math.ceil(bytes.length / 16384) }, (_, c) => bytes.subarray(c * 16384, (c + 1) * 16384)));
    const { key } = await store.put(source);
    process.stdout.write(`ok ${key}\n`);
  }
}
for (let w = 0; w < 16; w++) void writer(w);
