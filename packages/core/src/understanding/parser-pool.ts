import { Worker } from 'node:worker_threads';
import type { ParsingLimits } from '../config.js';
import type { ParseCaps, ParseMode } from './parse.js';
import type { ParseJob, ParseOutcome, WorkerAnswer } from './parse-protocol.js';

/** A worker left idle this long is ended; the next parse starts a fresh one. */
const IDLE_MS = 30_000;
/** Loading the parsers into a new worker may take this long on a busy machine before the worker counts as broken. */
const BOOT_MS = 60_000;

/**
 * Where the worker's entry is, beside this module: `parse-worker.ts` when running from TypeScript sources
 * (loaded through tsx, as the `stoa` command does), `parse-worker.js` once compiled.
 *
 * @example
 * parserWorkerEntry('file:///app/dist/understanding/parser-pool.js') // { url: …/parse-worker.js, fromSource: false }
 */
export function parserWorkerEntry(moduleUrl: string): { url: URL; fromSource: boolean } {
  const fromSource = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);
  return { url: new URL(`./parse-worker.${fromSource ? 'ts' : 'js'}`, moduleUrl), fromSource };
}

function startWorker(entry: { url: URL; fromSource: boolean }, limits: ParsingLimits): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: limits.workerMemoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(64, limits.workerMemoryMb / 8)) };
  if (!entry.fromSource) return new Worker(entry.url, { resourceLimits });
  return new Worker(new URL('./source-worker.mjs', import.meta.url), { resourceLimits, workerData: { entry: entry.url.href } });
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
  idle?: NodeJS.Timeout;
  /** Time limit of the job in flight. */
  deadline?: NodeJS.Timeout;
  /** Settles the job in flight when the worker ends or fails. */
  fail?: (outcome: ParseOutcome) => void;
}

interface Queued {
  job: Omit<ParseJob, 'id'>;
  resolve: (o: ParseOutcome) => void;
}

/**
 * A small pool of parser worker threads. Each parse runs in a worker with a heap cap (`resourceLimits`) and a
 * time limit; a worker that runs out of memory, crashes or overruns is ended and replaced by a fresh one on the
 * next job, and the job gets a failure outcome — the server's own thread is never at risk. At most
 * `limits.workers` run at once; further jobs wait in order.
 */
export class ParserPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly limits: ParsingLimits,
    private readonly entry = parserWorkerEntry(import.meta.url),
  ) {}

  /** Parses `bytes` in a worker (they are handed over: do not use them afterwards); resolves with the document or with why not (never rejects). */
  run(bytes: Buffer, mime: string, mode: ParseMode, opts: { chunk: boolean }): Promise<ParseOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, code: 'worker_crashed', reason: 'the server is shutting down', interrupted: true });
    // The bytes move to the worker: a buffer that owns its memory is handed over as is (the caller is done with
    // it), a view into a shared allocation (Node's small-buffer pool) is copied first.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const owned = whole ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
    return new Promise((resolve) => {
      this.queue.push({ job: { bytes: owned, mime, mode, caps: pickCaps(this.limits), chunk: opts.chunk }, resolve });
      this.pump();
    });
  }

  /** Ends every worker; jobs in flight or waiting get a failure outcome. */
  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.resolve({ ok: false, code: 'worker_crashed', reason: 'the server is shutting down', interrupted: true });
    await Promise.all(
      [...this.slots].map((s) => this.retire(s, { ok: false, code: 'worker_crashed', reason: 'the server is shutting down', interrupted: true })),
    );
  }

  /** Workers alive now (for tests and diagnostics). */
  get size(): number {
    return this.slots.size;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => !s.busy);
      if (!slot && this.slots.size < this.limits.workers) slot = this.spawn();
      if (!slot) return;
      const q = this.queue.shift()!;
      void this.dispatch(slot, q);
    }
  }

  private spawn(): Slot {
    const worker = startWorker(this.entry, this.limits);
    worker.unref();
    const slot: Slot = { worker, busy: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const boot = setTimeout(() => reject(new Error('boot timeout')), BOOT_MS);
      boot.unref();
      worker.once('message', (m: { ready?: boolean }) => {
        clearTimeout(boot);
        if (m.ready) resolve();
        else reject(new Error('unexpected first message'));
      });
      worker.once('exit', () => reject(new Error('exited while starting')));
    });
    slot.ready.catch(() => undefined);
    worker.on('error', (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.retire(
        slot,
        oom
          ? { ok: false, code: 'out_of_memory', reason: `parsing needed more than ${this.limits.workerMemoryMb} MiB of memory` }
          : { ok: false, code: 'worker_crashed', reason: 'the parser stopped unexpectedly' },
      );
    });
    worker.on('exit', () => void this.retire(slot, { ok: false, code: 'worker_crashed', reason: 'the parser stopped unexpectedly' }));
    this.slots.add(slot);
    return slot;
  }

  private async dispatch(slot: Slot, q: Queued): Promise<void> {
    slot.busy = true;
    if (slot.idle) clearTimeout(slot.idle);
    // A worker with a job in flight keeps the process alive; an idle one does not.
    slot.worker.ref();
    const id = this.nextId++;
    let settled = false;
    const onMessage = (a: WorkerAnswer) => {
      if (a.id !== id) return;
      const { id: _id, ...outcome } = a;
      settle(outcome as ParseOutcome);
      this.release(slot);
    };
    // Whatever ends the job (answer, timeout, crash, shutdown) settles it once and stops its timer.
    const settle = (o: ParseOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(slot.deadline);
      slot.worker.off('message', onMessage);
      q.resolve(o);
    };
    slot.fail = settle;
    try {
      await slot.ready;
    } catch {
      await this.retire(slot, { ok: false, code: 'worker_crashed', reason: 'the parser could not be started' });
      return;
    }
    if (settled) return;
    slot.deadline = setTimeout(() => {
      void this.retire(slot, { ok: false, code: 'timeout', reason: `parsing took longer than ${seconds(this.limits.timeoutMs)}` });
    }, this.limits.timeoutMs);
    slot.worker.on('message', onMessage);
    const job: ParseJob = { id, ...q.job };
    slot.worker.postMessage(job, [job.bytes]);
  }

  private release(slot: Slot): void {
    slot.busy = false;
    slot.fail = undefined;
    slot.worker.unref();
    if (!this.slots.has(slot)) return;
    slot.idle = setTimeout(() => void this.retire(slot, { ok: false, code: 'worker_crashed', reason: 'idle' }), IDLE_MS);
    slot.idle.unref();
    this.pump();
  }

  /** Ends a worker (if still running), fails its job in flight, and lets waiting jobs start a fresh one. */
  private async retire(slot: Slot, outcome: ParseOutcome): Promise<void> {
    if (!this.slots.delete(slot)) return;
    if (slot.idle) clearTimeout(slot.idle);
    slot.fail?.(outcome);
    slot.fail = undefined;
    await slot.worker.terminate().catch(() => undefined);
    if (!this.closed) this.pump();
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function pickCaps(l: ParseCaps): ParseCaps {
  return {
    maxInputBytes: l.maxInputBytes,
    maxUnpackedBytes: l.maxUnpackedBytes,
    maxRatio: l.maxRatio,
    maxTextChars: l.maxTextChars,
    maxPages: l.maxPages,
    maxDepth: l.maxDepth,
  };
}
