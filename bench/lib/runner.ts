import { msSince } from './stats.js';

interface RunResult {
  /** Latency of each successful task, in ms. */
  latencies: number[];
  wallMs: number;
  errors: number;
  firstError?: string;
  /** True when the time budget ran out before every task ran. */
  timedOut: boolean;
}

/**
 * Runs `count` tasks with `concurrency` workers, stopping early once `maxMs` has passed (each worker finishes
 * the task in hand). Tasks are numbered 0…count-1 and handed out in order.
 *
 * @example
 * const r = await runConcurrent({ count: 2000, concurrency: 16, maxMs: 60_000, task: (i) => put(i) });
 */
export async function runConcurrent(opts: { count: number; concurrency: number; maxMs: number; task: (i: number) => Promise<void> }): Promise<RunResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  let timedOut = false;
  const start = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    for (;;) {
      if (next >= opts.count) return;
      if (msSince(start) > opts.maxMs) {
        timedOut = true;
        return;
      }
      const i = next++;
      const t = process.hrtime.bigint();
      try {
        await opts.task(i);
        latencies.push(msSince(t));
      } catch (e) {
        errors++;
        firstError ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return { latencies, wallMs: msSince(start), errors, firstError, timedOut };
}
