// Child process of the fs crash-safety test: starts a large put into the store at argv[2], stalls half-way and
// waits to be SIGKILLed, so the parent can check what a crash mid-write leaves on disk.
import { Readable } from 'node:stream';
import { createFsBlobStore } from '../fs-store.js';
import { CRASH_STALL_AFTER, crashChunk } from './crash-content.js';

const root = process.argv[2];
if (!root) throw new Error('usage: crash-put-child <root>');
let i = 0;
const source = new Readable({
  read() {
    if (i < CRASH_STALL_AFTER) this.push(crashChunk(i++));
    else if (i === CRASH_STALL_AFTER) {
      i++;
      process.stdout.write('stalled\n'); // never push again: the put stays in flight until the kill
    }
  },
});
void createFsBlobStore({ root }).put(source);
setInterval(() => undefined, 60_000); // keep the process alive
