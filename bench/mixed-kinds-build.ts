/**
 * Builds the judged mixed-kinds set in bench/mixed-kinds/ from the public collections in ../shared/datasets
 * (or $STOA_DATASETS): English from Cranfield, Russian from xquad-ru, Chinese from xquad-zh. Deterministic
 * (seeded); the output is committed, so the bench runs without the datasets.
 *
 *   node --import tsx bench/mixed-kinds-build.ts
 *
 * Per language: 60 of the collection's queries with their judgments, the judged documents plus others up to
 * 240, each made a wiki page (40 %), a memory file (20 %) or a file (40 %), and 5 small log files per query that
 * repeat two or three of its words (judged not relevant: the noise of issue 31). Plus 20 "named" queries: the
 * first words of a page's or file's title, judged relevant to that page or file only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDataset, type Dataset } from './search-lib.js';

interface MixedDoc {
  id: string;
  kind: 'wiki' | 'memory' | 'file';
  path: string;
  title: string;
  text: string;
}

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const STOP = new Set(
  'what which when where there their these those about with from that this have been were does into than then them they also such must being other some more most what how why are the for and can not any its is of to in on by an as at be or it'.split(
    ' ',
  ),
);
const isCjk = (s: string) => /\p{Script=Han}/u.test(s);

/** Content words of a text: words of 4+ letters not in a small stop list; for Chinese, its two-character runs. */
function words(text: string): string[] {
  if (isCjk(text)) {
    const han = Array.from(text.replace(/[^\p{Script=Han}]/gu, ''));
    const out: string[] = [];
    for (let i = 0; i + 1 < han.length; i += 2) out.push(han[i]! + han[i + 1]!);
    return out;
  }
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4 && !STOP.has(w));
}

/** A short title for a paragraph without one: its first clause, at most 8 words (or 12 characters of Chinese). */
function titleOf(text: string): string {
  const clause = text.split(/[.!?。！？，,;；:：]/u)[0]!.trim();
  if (isCjk(clause)) return Array.from(clause).slice(0, 12).join('');
  return clause.split(/\s+/).slice(0, 8).join(' ');
}

const slug = (title: string, n: number) =>
  (isCjk(title)
    ? Array.from(title.replace(/[^\p{Script=Han}]/gu, ''))
        .slice(0, 6)
        .join('')
    : words(title).slice(0, n).join('-')) || 'untitled';

function build(ds: Dataset, lang: string, seed: number) {
  const rand = rng(seed);
  const queries = shuffle(
    ds.queries.filter((q) => ds.qrels.has(q.id)),
    rand,
  ).slice(0, 60);
  const wanted = new Set(queries.flatMap((q) => [...ds.qrels.get(q.id)!.keys()]));
  const others = shuffle(
    ds.docs.filter((d) => !wanted.has(d.id)),
    rand,
  );
  const chosen = [...ds.docs.filter((d) => wanted.has(d.id)), ...others].slice(0, Math.max(240, wanted.size));
  const used = new Set<string>();
  const unique = (p: string) => {
    let q = p;
    for (let i = 2; used.has(q); i++) q = p.replace(/(\.\w+)?$/, (ext) => `-${i}${ext}`);
    used.add(q);
    return q;
  };
  const docs: MixedDoc[] = chosen.map((d, i) => {
    const title = d.title.trim() || titleOf(d.text);
    const r = rand();
    if (r < 0.4) return { id: d.id, kind: 'wiki', path: unique(`wiki/${slug(title, 4)}`), title, text: d.text };
    if (r < 0.6) return { id: d.id, kind: 'memory', path: unique(`conversations/c${i}/MEMORY.md`), title: 'MEMORY.md', text: d.text };
    const path = unique(`docs/${slug(title, 3)}.txt`);
    return { id: d.id, kind: 'file', path, title: path.split('/').pop()!, text: d.text };
  });
  // The noise: small log files that repeat some of a query's words.
  queries.forEach((q, qi) => {
    const ws = words(q.text);
    for (let n = 0; n < 5 && ws.length > 0; n++) {
      const pick = shuffle(ws, rand).slice(0, Math.min(ws.length, 2 + Math.floor(rand() * 2)));
      const lines = [0, 1, 2].map((k) => `2024-05-0${k + 1}T10:0${n}:00Z ${k === 1 ? 'WARN' : 'INFO'} ${pick.join(' ')} ${k === 2 ? 'done' : 'retry'}`);
      const path = `logs/svc-${qi}-${n}.log`;
      docs.push({ id: `log-${qi}-${n}`, kind: 'file', path, title: path.split('/').pop()!, text: `${lines.join('\n')}\n` });
    }
  });
  const qrels: string[] = [];
  const out = queries.map((q) => {
    for (const [d, rel] of ds.qrels.get(q.id)!) qrels.push(`${q.id}\t${d}\t${rel}`);
    return { id: q.id, text: q.text, set: 'judged' };
  });
  // Named queries: the first words of a title, as someone looks for a page or file they know.
  const named = shuffle(
    docs.filter((d) => d.kind !== 'memory' && !d.id.startsWith('log-') && words(d.title).length >= 2),
    rand,
  ).slice(0, 20);
  named.forEach((d, i) => {
    const text = isCjk(d.title) ? words(d.title).slice(0, 2).join('') : words(d.title).slice(0, 2).join(' ');
    out.push({ id: `named-${i}`, text, set: 'named' });
    qrels.push(`named-${i}\t${d.id}\t1`);
  });
  const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'mixed-kinds', lang);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'docs.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), out.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'qrels.tsv'), ['query-id\tdoc-id\trelevance', ...qrels].join('\n') + '\n');
  console.log(`${lang}: ${docs.length} documents (${docs.filter((d) => d.id.startsWith('log-')).length} logs), ${out.length} queries`);
}

build(loadDataset('cranfield'), 'en', 31);
build(loadDataset('xquad-ru'), 'ru', 32);
build(loadDataset('xquad-zh'), 'zh', 33);
