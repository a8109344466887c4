/**
 * Parameter sweep behind DEFAULT_TUNING: changes one knob at a time from the default and prints nDCG@10 per
 * dataset. Ranking only (no snippets), so it is faster than search-quality.ts but ranks identically.
 *
 *   node --import tsx bench/search-tune.ts [dataset…]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS, datasetsDir, evaluate, f3, loadDataset, stoaIndex, stoaSearch, type Dataset } from './search-lib.js';
import { DEFAULT_TUNING, type SearchTuning } from '../packages/core/src/search/tuning.js';
import type { CjkMode } from '../packages/core/src/search/tokenize.js';

const variants: Array<[string, Partial<SearchTuning>]> = [
  ['default', {}],
  ...(['words', 'bigrams', 'unigrams+bigrams', 'words+unigrams+bigrams'] as CjkMode[]).map((cjk): [string, Partial<SearchTuning>] => [`cjk=${cjk}`, { cjk }]),
  ['cjkQuerySingles=drop', { cjkQuerySingles: 'drop' }],
  ['stem=false', { stem: false }],
  ['stopwords=none', { stopwords: 'none' }],
  ['stopwords=index', { stopwords: 'index' }],
  ['mode=or', { mode: 'or' }],
  ...[1, 2, 5, 10].map((w): [string, Partial<SearchTuning>] => [`titleWeight=${w}`, { titleWeight: w }]),
  // Scaling both weights by c acts like k1/c in FTS5's bm25() (whose k1 = 1.2 is fixed).
  ...[0.5, 0.75, 1.5, 2].map((c): [string, Partial<SearchTuning>] => [
    `weights×${c} (k1≈${(1.2 / c).toFixed(2)})`,
    { titleWeight: DEFAULT_TUNING.titleWeight * c, bodyWeight: c },
  ]),
];

const wanted = process.argv.slice(2);
const sets: Dataset[] = (wanted.length ? wanted : DATASETS).filter((n) => existsSync(join(datasetsDir(), n))).map((n) => loadDataset(n));
const indexKey = (t: SearchTuning) => `${t.cjk}|${t.stem}|${t.stopwords === 'index'}`;
const results = new Map<string, string[]>();
for (const ds of sets) {
  const cache = new Map<string, Awaited<ReturnType<typeof stoaIndex>>>();
  for (const [name, change] of variants) {
    const tuning = { ...DEFAULT_TUNING, ...change };
    const isCjkSet = ds.name.endsWith('-zh');
    if ((change.cjk || change.cjkQuerySingles) && !isCjkSet) {
      results.set(name, [...(results.get(name) ?? []), '–']);
      continue;
    }
    const key = indexKey(tuning);
    if (!cache.has(key)) cache.set(key, await stoaIndex(ds.docs, tuning));
    const s = await evaluate(ds, (q) => stoaSearch(cache.get(key)!.db, q, tuning, 10, true));
    results.set(name, [...(results.get(name) ?? []), `${f3(s.ndcg)} (R ${f3(s.recall)})`]);
    console.error(`${ds.name} ${name}: ${f3(s.ndcg)}`);
  }
  for (const idx of cache.values()) await idx.close();
}
console.log(`| variant | ${sets.map((s) => s.name).join(' | ')} |`);
console.log(`| --- | ${sets.map(() => '---').join(' | ')} |`);
for (const [name, cells] of results) console.log(`| ${name} | ${cells.join(' | ')} |`);
