/**
 * Entry of a parser worker thread (see parser-pool.ts). It answers one job at a time: parse and chunk a file's
 * bytes under the caps, or say why not. Being an entry point, it starts listening when loaded; nothing else
 * imports it.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { chunkText } from './chunk.js';
import { parseDocument } from './parse.js';
import { ParseRefusal } from './parse-refusal.js';
import type { ParseJob, WorkerAnswer } from './parse-protocol.js';

async function answer(job: ParseJob): Promise<WorkerAnswer> {
  try {
    const doc = await parseDocument(Buffer.from(job.bytes), job.mime, job.mode, job.caps);
    return { id: job.id, ok: true, doc, chunks: job.chunk ? chunkText(doc.text, doc.pages) : [] };
  } catch (e) {
    if (e instanceof ParseRefusal) return { id: job.id, ok: false, code: e.code, reason: e.message };
    // A parser's own error text may name internals; the reason stays generic.
    const deep = e instanceof RangeError && /call stack/i.test(e.message);
    return deep
      ? { id: job.id, ok: false, code: 'too_complex', reason: 'the document nests too deeply to parse' }
      : { id: job.id, ok: false, code: 'unreadable', reason: 'the file could not be parsed' };
  }
}

/**
 * Lowers this thread's CPU priority, so on a busy machine the server's request thread wins the CPU over a parse.
 * On Linux a thread has its own id and nice value (/proc/thread-self names it); elsewhere nothing changes.
 */
function yieldCpuToRequests(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid !== process.pid) setPriority(tid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: the parse runs at normal priority.
  }
}

const port = parentPort;
if (port) {
  yieldCpuToRequests();
  port.on('message', (job: ParseJob) => {
    void answer(job).then((a) => port.postMessage(a));
  });
  // Load both parsers before saying ready, so a job's time limit measures parsing, not start-up.
  await Promise.all([import('unpdf'), import('mammoth')]);
  port.postMessage({ ready: true });
}
