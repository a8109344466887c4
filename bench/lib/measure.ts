/** A bounded latency measurement for the benchmarks with many files; no import of the core (see scale-tree.ts). */
import { msSince, summarize } from './stats.js';

export interface Measured {
  label: string;
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/**
 * At most `queries` runs of `run` (or `budgetMs` of them, whichever comes first: bounded runs), after 10
 * unmeasured warm-up ones (statement caches, page cache).
 */
export async function measure(label: string, run: (i: number) => Promise<unknown>, queries: number, budgetMs: number): Promise<Measured> {
  for (let i = 0; i < 10; i++) await run(i);
  const lat: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < queries && msSince(start) < budgetMs; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    lat.push(msSince(t));
  }
  const s = summarize(lat, 1);
  return { label, n: lat.length, p50: s.p50, p99: s.p99, mean: s.mean };
}
