/**
 * Latency statistics for the benchmarks: nearest-rank percentiles over milliseconds.
 *
 * @example
 * const s = summarize([1.2, 0.8, 3.1], 10); // { ops: 3, opsPerSec: 300, p50: 1.2, p99: 3.1, … }
 */
export interface Summary {
  ops: number;
  opsPerSec: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array (p in 0–100); NaN for an empty array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Throughput and latency percentiles of `latenciesMs` measured over `wallMs` of wall-clock time. */
export function summarize(latenciesMs: readonly number[], wallMs: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    ops: sorted.length,
    opsPerSec: wallMs > 0 ? (sorted.length * 1000) / wallMs : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` value), as a float. */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Formats a number with a fixed count of decimals, for report tables. */
export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/** "2.41×" style ratio of a to b. */
export function ratio(a: number, b: number): string {
  return b > 0 && Number.isFinite(a) ? `${(a / b).toFixed(2)}×` : '–';
}
