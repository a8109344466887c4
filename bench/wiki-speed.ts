/**
 * Wiki operation latency on SQLite, on top of what bench/search-speed.ts measures for raw searchDocs: the wiki
 * layer's own work — a save (page row, version row, parsed links and search entry in one transaction), a page
 * view (backlinks from visible pages, link targets, unlinked mentions via the index), a visibility-filtered
 * wiki search, a subtree listing and a move dry run — with N pages of English, Russian and Chinese text from the
 * test collections, each linking to three others, one in ten belonging to a channel; titles are one to four words.
 *
 *   node --import tsx bench/wiki-speed.ts [pages=20000] [samples=300]
 */
import { performance } from 'node:perf_hooks';
import { createConversation, getPage, listPages, movePage, putPage, searchWiki } from '@stoa/core/testing';
import { createTestPlatform } from '../packages/core/src/testing.js';
import { DATASETS, datasetsDir, loadDataset, type Doc } from './search-lib.js';

const args = process.argv.slice(2);
const PAGES = Number(args[0] ?? 20_000);
const SAMPLES = Number(args[1] ?? 300);

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const docs: Doc[] = DATASETS.flatMap((n) => loadDataset(n, datasetsDir()).docs);
const seg = new Intl.Segmenter('und', { granularity: 'word' });
/** Wiki titles are short: the first one to four words of the collection's title (or of the text). */
const shortTitle = (d: Doc) => {
  const words = [...seg.segment(d.title || d.text)].filter((s) => s.isWordLike).map((s) => s.segment);
  const n = 1 + Math.floor(rand() * 4);
  return words.slice(0, n).join(/[\u4e00-\u9fff]/.test(words[0] ?? '') ? '' : ' ');
};
const pathOf = (i: number) => `area-${i % 50}/topic-${Math.floor(i / 50) % 40}/page-${i}`;

const t = await createTestPlatform('sqlite');
const ctx = await t.userCtx('writer', 'editor');
const channel = (await createConversation(ctx, { channel: 'bench' })).id;
const reader = await t.userCtx('reader', 'editor');

const t0 = performance.now();
const saves: number[] = [];
for (let i = 0; i < PAGES; i++) {
  const d = docs[i % docs.length]!;
  const links = [0, 1, 2].map(() => `[[${pathOf(Math.floor(rand() * PAGES))}]]`).join(' ');
  const s = performance.now();
  await putPage(ctx, { path: pathOf(i), title: shortTitle(d) || `Page ${i}`, text: `${d.text}\n\nSee ${links}.`, channel: i % 10 === 9 ? channel : undefined });
  saves.push(performance.now() - s);
}
const build = (performance.now() - t0) / 1000;

const queries = Array.from({ length: SAMPLES }, () => {
  const d = pick(docs);
  const words = [...new Intl.Segmenter('und', { granularity: 'word' }).segment(d.text)].filter((s) => s.isWordLike).map((s) => s.segment);
  const n = 1 + Math.floor(rand() * 3);
  const at = Math.floor(rand() * Math.max(1, words.length - n));
  return words.slice(at, at + n).join(/[\u4e00-\u9fff]/.test(words[0] ?? '') ? '' : ' ');
});

async function measure(name: string, f: (i: number) => Promise<unknown>): Promise<string> {
  const xs: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const s = performance.now();
    await f(i);
    xs.push(performance.now() - s);
  }
  return `| ${name} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 99).toFixed(2)} |`;
}

const rows = [
  `| save (first version, during the build) | ${pct(saves, 50).toFixed(2)} | ${pct(saves, 99).toFixed(2)} |`,
  await measure('save a new version', (i) => putPage(ctx, { path: pathOf((i * 7919) % PAGES), text: `edited ${i}. See [[${pathOf(i)}]].` })),
  await measure('get (backlinks, links, unlinked mentions)', (i) => getPage(reader, { path: pathOf(((i * 104729) % PAGES) - (((i * 104729) % PAGES) % 10)) })),
  await measure('wiki search, 1–3 words, visibility filtered', (i) => searchWiki(reader, { query: queries[i]!, limit: 20 })),
  await measure('list a subtree (page + nested)', (i) => listPages(reader, { prefix: `area-${i % 50}/topic-${i % 40}` })),
  await measure('move dry run of a subtree', (i) => movePage(ctx, { from: `area-${i % 50}/topic-${i % 40}`, to: `moved-${i}`, dryRun: true })),
];
console.log(`${PAGES} pages (10 % in a channel), ${SAMPLES} samples per operation; build ${build.toFixed(0)} s\n`);
console.log('| operation | p50 ms | p99 ms |');
console.log('| --- | --- | --- |');
for (const r of rows) console.log(r);
await t.cleanup();
