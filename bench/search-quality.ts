/**
 * Search quality: Stoa's search module (SQLite FTS5) against MiniSearch on the test collections in
 * ../shared/datasets (or $STOA_DATASETS). Prints nDCG@10 and recall@10 per dataset.
 *
 *   npm run bench:search                    # every dataset
 *   npm run bench:search -- cranfield       # some of them
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS, datasetsDir, evaluate, f3, loadDataset, miniIndex, miniSearch, stoaIndex, stoaSearch } from './search-lib.js';

const REFERENCE: Record<string, number> = { cranfield: 0.51, 'xquad-ru': 0.87, 'xquad-zh': 0.96, 'cmrc2018-zh': 0.98 };

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = (wanted.length > 0 ? wanted : DATASETS).filter((n) => existsSync(join(datasetsDir(), n, 'docs.jsonl')));
if (names.length === 0) {
  console.error(`no datasets found in ${datasetsDir()} (set STOA_DATASETS)`);
  process.exit(1);
}

const rows: string[][] = [];
for (const name of names) {
  const ds = loadDataset(name);
  let t0 = performance.now();
  const stoa = await stoaIndex(ds.docs);
  const stoaIndexMs = performance.now() - t0;
  t0 = performance.now();
  const s = await evaluate(ds, (q) => stoaSearch(stoa.db, q));
  const stoaQueryMs = (performance.now() - t0) / ds.queries.length;
  await stoa.close();
  t0 = performance.now();
  const ms = miniIndex(ds.docs);
  const miniIndexMs = performance.now() - t0;
  t0 = performance.now();
  const m = await evaluate(ds, (q) => miniSearch(ms, q));
  const miniQueryMs = (performance.now() - t0) / ds.queries.length;
  const ref = REFERENCE[name];
  rows.push([
    name,
    String(ds.docs.length),
    String(ds.queries.length),
    f3(s.ndcg),
    f3(s.recall),
    f3(m.ndcg),
    f3(m.recall),
    f3(s.ndcg / m.ndcg),
    ref === undefined ? '–' : `${ref.toFixed(2)} ${s.ndcg >= ref ? '✓' : '✗'}`,
    name === 'cranfield' ? `${f3(s.ndcgExp)} / ${f3(m.ndcgExp)}` : '',
    `${(stoaIndexMs / 1000).toFixed(1)} s / ${(miniIndexMs / 1000).toFixed(1)} s`,
    `${stoaQueryMs.toFixed(2)} / ${miniQueryMs.toFixed(2)}`,
  ]);
  console.error(`${name}: done`);
}

const header = [
  'dataset',
  'docs',
  'queries',
  'Stoa nDCG@10',
  'Stoa R@10',
  'MiniSearch nDCG@10',
  'MiniSearch R@10',
  'ratio',
  'reference',
  'nDCG 2^rel−1 (S / M)',
  'index (S / M)',
  'ms/query (S / M)',
];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
