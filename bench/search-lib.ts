/**
 * Shared pieces of the search benchmarks: dataset loading, metrics, a Stoa index in a temp SQLite database
 * and a MiniSearch index over the same documents.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { sql } from 'kysely';
import { openDb, type StoaDb } from '@stoa/db';
import { createTestDb } from '@stoa/db/testing';
import { indexDocs, rankDocs, searchDocs } from '../packages/core/src/search/index.js';
import { seedProject } from '../packages/core/src/search/test-helpers.js';
import { DEFAULT_TUNING, type SearchTuning } from '../packages/core/src/search/tuning.js';

/** One line of docs.jsonl. */
export interface Doc {
  id: string;
  title: string;
  text: string;
}
/** One line of queries.jsonl. */
export interface Query {
  id: string;
  text: string;
}
/** A test collection; qrels: query id → doc id → relevance (> 0). */
export interface Dataset {
  name: string;
  docs: Doc[];
  queries: Query[];
  qrels: Map<string, Map<string, number>>;
}

/**
 * `../shared/datasets` beside the repository, or $STOA_DATASETS.
 *
 * @example
 * loadDataset('cranfield', datasetsDir())
 */
export function datasetsDir(): string {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  return process.env.STOA_DATASETS ?? resolve(repoRoot, '../shared/datasets');
}

/** The collections, in the order the tables list them. */
export const DATASETS = ['cranfield', 'xquad-ru', 'xquad-zh', 'cmrc2018-zh'];

const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/**
 * Reads `<dir>/<name>/{docs.jsonl,queries.jsonl,qrels.tsv}` (qrels with a header line).
 *
 * @example
 * const ds = loadDataset('xquad-ru'); // ds.docs.length === 240
 */
export function loadDataset(name: string, dir = datasetsDir()): Dataset {
  const base = join(dir, name);
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(base, 'qrels.tsv'), 'utf8').split('\n').slice(1)) {
    const [q, d, rel] = line.split('\t');
    if (!q || !d || !rel || Number(rel) <= 0) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(rel));
  }
  return { name, docs: jsonl<Doc>(join(base, 'docs.jsonl')), queries: jsonl<Query>(join(base, 'queries.jsonl')), qrels };
}

/**
 * nDCG@k with gain = rel (or 2^rel − 1 with `exp`) and log2(rank + 1) discount, and recall@k.
 *
 * @example
 * metrics(['d1', 'd9'], new Map([['d1', 1]])) // { ndcg: 1, recall: 1 }
 */
export function metrics(ranked: string[], rels: Map<string, number>, k = 10, exp = false): { ndcg: number; recall: number } {
  const gain = (r: number) => (exp ? 2 ** r - 1 : r);
  let dcg = 0;
  let found = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const r = rels.get(id) ?? 0;
    if (r > 0) found++;
    dcg += gain(r) / Math.log2(i + 2);
  });
  const ideal = [...rels.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((s, r, i) => s + gain(r) / Math.log2(i + 2), 0);
  return { ndcg: idcg > 0 ? dcg / idcg : 0, recall: rels.size > 0 ? found / rels.size : 0 };
}

/** Mean metrics over a dataset's queries (ndcgExp: with 2^rel − 1 gain, as the dataset README's baseline). */
export interface Scores {
  ndcg: number;
  recall: number;
  ndcgExp: number;
}

/**
 * Averages the metrics of a search function over every query of a dataset.
 *
 * @example
 * const s = await evaluate(ds, (q) => miniSearch(ms, q)); // s.ndcg, s.recall
 */
export async function evaluate(ds: Dataset, search: (q: string) => Promise<string[]> | string[]): Promise<Scores> {
  let ndcg = 0,
    recall = 0,
    ndcgExp = 0;
  for (const q of ds.queries) {
    const rels = ds.qrels.get(q.id) ?? new Map();
    const ranked = await search(q.text);
    const m = metrics(ranked, rels);
    ndcg += m.ndcg;
    recall += m.recall;
    ndcgExp += metrics(ranked, rels, 10, true).ndcg;
  }
  const n = ds.queries.length;
  return { ndcg: ndcg / n, recall: recall / n, ndcgExp: ndcgExp / n };
}

/** The project every benchmark document belongs to. */
export const PROJECT = 'prj_bench';

/**
 * A fresh temp SQLite database holding the documents, indexed through the Stoa search module.
 *
 * @example
 * const idx = await stoaIndex(ds.docs); await stoaSearch(idx.db, 'wing'); await idx.close();
 */
export async function stoaIndex(
  docs: Iterable<Doc>,
  tuning: SearchTuning = DEFAULT_TUNING,
  kind: 'sqlite' | 'postgres' = 'sqlite',
  /** Documents per transaction (and per statement on PostgreSQL). */
  perTransaction = 1000,
): Promise<{ db: StoaDb; file: string; close: () => Promise<void>; url?: string; keep: () => Promise<void> }> {
  // PostgreSQL: a database of its own, created and dropped as the tests do.
  const pg = kind === 'postgres' ? await createTestDb('postgres') : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'stoa-bench-search-'));
  const file = join(dir, 'stoa.db');
  const db = pg ? pg.db : await openDb({ kind: 'sqlite', file });
  const k = db.kysely;
  await seedProject(k, PROJECT);
  let batch: Doc[] = [];
  const flush = async () => {
    const docsNow = batch;
    batch = [];
    // One transaction per batch; on PostgreSQL one statement too (indexDocs), as a reindex would write them.
    await k.transaction().execute((trx) =>
      indexDocs(
        { kysely: trx, dialect: kind, tuning },
        docsNow.map((d) => ({
          projectId: PROJECT,
          kind: 'wiki',
          refId: d.id,
          path: `docs/${d.id}`,
          title: d.title,
          body: d.text,
          visibility: 'project',
          updatedAt: '2024-01-01T00:00:00.000Z',
        })),
      ),
    );
  };
  // The server's database upkeep (decision 0036) beside the build, as `stoa serve` runs it: every 10 s, on a
  // connection of its own. STOA_PG_VACUUM=off leaves it out, as an installation that turned it off would.
  let upkeepRunning: Promise<unknown> | undefined;
  let vacuums = 0;
  const upkeep =
    pg && process.env.STOA_PG_VACUUM !== 'off'
      ? setInterval(() => {
          upkeepRunning ??= db
            .maintain()
            .then((done) => (vacuums += done.vacuumed.length))
            .finally(() => (upkeepRunning = undefined));
        }, 10_000)
      : undefined;
  for (const d of docs) {
    batch.push(d);
    if (batch.length >= perTransaction) await flush();
  }
  await flush();
  clearInterval(upkeep);
  await upkeepRunning;
  if (upkeep) console.error(`database upkeep during the build: ${vacuums} table vacuums`);
  // As autovacuum leaves a table that has settled: statistics, and the visibility map index-only scans rely on.
  if (pg) await sql`vacuum analyze`.execute(k);
  return {
    db,
    file,
    url: pg?.url,
    close: async () => {
      if (pg) await pg.cleanup();
      else await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
    /** Closes the connection and leaves the database (a PostgreSQL one; a SQLite file stays where `file` says). */
    keep: () => db.close(),
  };
}

/**
 * Top-`limit` ref ids from the Stoa index (`rankOnly`: without cutting snippets, for parameter sweeps).
 *
 * @example
 * await stoaSearch(idx.db, 'boundary layer') // ['184', '29', …]
 */
export async function stoaSearch(db: StoaDb, query: string, tuning: SearchTuning = DEFAULT_TUNING, limit = 10, rankOnly = false): Promise<string[]> {
  const index = { kysely: db.kysely, dialect: 'sqlite' as const, tuning };
  const q = { projectId: PROJECT, query, visibility: ['project'], limit };
  if (rankOnly) return (await rankDocs(index, q)).map((r) => r.refId);
  const hits = await searchDocs(index, q);
  return hits.map((h) => h.refId);
}

const WORDS = new Intl.Segmenter('und', { granularity: 'word' });
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * MiniSearch's own tokenizer (space/punctuation split, lower case) — except for text with CJK characters,
 * which it would keep as one giant "word"; those get Intl.Segmenter words, the fair equivalent.
 *
 * @example
 * miniSearchTokenize('数据库很快') // ['数据', '库', '很快']
 */
export function miniSearchTokenize(text: string): string[] {
  if (!HAS_CJK.test(text)) return MiniSearch.getDefault('tokenize')(text);
  return [...WORDS.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

/**
 * MiniSearch over title + text, default BM25+, title boosted ×2, OR queries, no fuzzy/prefix matching.
 *
 * @example
 * const ms = miniIndex(ds.docs); miniSearch(ms, 'wing')
 */
export function miniIndex(docs: Doc[]): MiniSearch<Doc> {
  const ms = new MiniSearch<Doc>({ fields: ['title', 'text'], storeFields: [], tokenize: miniSearchTokenize, searchOptions: { boost: { title: 2 } } });
  ms.addAll(docs);
  return ms;
}

/**
 * Top-`limit` ids from MiniSearch.
 *
 * @example
 * miniSearch(ms, 'boundary layer', 10)
 */
export function miniSearch(ms: MiniSearch<Doc>, query: string, limit = 10): string[] {
  return ms
    .search(query)
    .slice(0, limit)
    .map((r) => String(r.id));
}

/** Formats a number with 3 decimals, e.g. f3(0.5) === '0.500'. */
export const f3 = (n: number): string => n.toFixed(3);
