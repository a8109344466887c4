/**
 * Projects with many files for the benchmarks (bench/files-100k.ts, bench/files-scale.ts): the fast way in
 * (`fillProject`, shared with the tests, see packages/core/src/files/bulk-fill.ts) and a bounded latency
 * measurement.
 */
import { msSince, summarize } from './stats.js';

export { baseName, fillProject } from '@stoa/core/testing';

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

// Names in three scripts and several extensions, as a team's folders hold them.
const WORDS = [
  'report',
  'Отчёт',
  '会议纪要',
  'invoice',
  'photo',
  'Budget',
  'notes',
  'Протокол',
  'design-spec',
  'contract',
  '设计稿',
  'meeting',
  'draft',
  'summary',
  'Résumé',
  'data',
];
const EXTS = ['pdf', 'docx', 'md', 'jpg', 'xlsx', 'txt', 'png', 'csv'];

/** The `i`th file's name (`digits` wide numbering): words, years and extensions repeat, every name is unique. */
export function manyFilesName(i: number, digits: number): string {
  return `${WORDS[i % WORDS.length]} ${2000 + (i % 27)}-${String(i).padStart(digits, '0')}.${EXTS[(i >> 4) % EXTS.length]}`;
}
