/**
 * Search latency: 100,000 synthetic pages (English, Russian and Chinese words drawn from the test collections,
 * with their natural frequencies), 1–3 word queries, p50/p99 for Stoa (SQLite file, full searchDocs with
 * snippets) and MiniSearch (in memory, ids only) in one run.
 *
 *   node --max-old-space-size=8192 --import tsx bench/search-speed.ts [pages] [queries] [--keep] [--db=FILE]
 *
 * --pg also indexes the pages into a fresh PostgreSQL database and times the same queries there;
 * --pg-batch=N writes N pages per statement there (default 1).
 * --no-minisearch leaves MiniSearch out; --pg-jit-ab then runs the queries again with the ranking's JIT as the server sets it and off, in turns.
 * --keep leaves the SQLite file in place (its path is printed); --db=FILE reuses such a file (built with the
 * same page count: pages are generated from a fixed seed) instead of indexing again.
 * --pg-keep leaves the PostgreSQL database in place (its URL is printed); --pg-db=URL reuses such a database.
 * --pg-ab=BASE_URL,CHANGE_URL times only the queries on two such databases in turns (see PG_AB below).
 * --slowest=N prints each run's N slowest queries.
 */
import { statSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDb, type DB } from '@stoa/db';
import { searchDocs } from '../packages/core/src/search/index.js';
import { STOPWORDS } from '../packages/core/src/search/stopwords.js';
import { seededRandom as rng } from '../packages/core/src/search/test-helpers.js';
import { reportAims, type Aim } from './lib/aims.js';
import { DATASETS, datasetsDir, loadDataset, miniIndex, PROJECT, stoaIndex, type Doc } from './search-lib.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const KEEP = process.argv.includes('--keep');
const REUSE = process.argv.find((a) => a.startsWith('--db='))?.slice(5);
/** Also index the same pages into a fresh PostgreSQL database (as the tests create one) and time it alike. */
const PG = process.argv.includes('--pg');
const PAGES = Number(args[0] ?? 100_000);
/**
 * Pages per transaction and per statement when building the PostgreSQL index (`--pg-batch=N`): 1 (the default) as
 * files are saved, one write at a time; a few hundred as a reindex or an import writes them (indexDocs).
 */
const PG_PER_TRANSACTION = Number(process.argv.find((a) => a.startsWith('--pg-batch='))?.slice(11) ?? 1);
const QUERIES = Number(args[1] ?? 1_000);
/**
 * `--pg-jit-ab`: after the PostgreSQL run, the same queries again on the same database, the ranking function with
 * the server's JIT setting and without JIT (migration 048) in turns, two rounds each.
 */
const JIT_AB = process.argv.includes('--pg-jit-ab');
const PG_KEEP = process.argv.includes('--pg-keep');
const PG_REUSE = process.argv.find((a) => a.startsWith('--pg-db='))?.slice(8);
/**
 * `--pg-ab=BASE_URL,CHANGE_URL`: only the queries, on two kept PostgreSQL databases in turns (three rounds), after
 * checking that both give the same hits and scores. BASE is used as it is; CHANGE is opened by this checkout, which
 * applies its migrations: keep a database built by the base checkout (`--pg-keep`), copy it
 * (`create database b template a`), and run this from the changed checkout.
 */
const PG_AB = process.argv
  .find((a) => a.startsWith('--pg-ab='))
  ?.slice(8)
  .split(',');
/** `--no-minisearch`: leave MiniSearch out (its index takes minutes at 100k pages). */
const MINI = !process.argv.includes('--no-minisearch');
/** `--slowest=N`: after each engine's run, its N slowest queries with their times (where a tail comes from). */
const SLOWEST = Number(process.argv.find((a) => a.startsWith('--slowest='))?.slice(10) ?? 0);

const rand = rng(42);
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)]!;

type Lang = 'en' | 'ru' | 'zh';
interface Vocab {
  stream: string[];
  distinct: string[];
  joiner: string;
}

/** Every word occurrence of a language's collections (sampling it reproduces Zipf) and the distinct words. */
function vocabularies(): Record<Lang, Vocab> {
  const seg = new Intl.Segmenter('und', { granularity: 'word' });
  const out = {} as Record<Lang, Vocab>;
  const langOf: Record<string, Lang> = { cranfield: 'en', 'xquad-ru': 'ru', 'xquad-zh': 'zh', 'cmrc2018-zh': 'zh' };
  for (const name of DATASETS) {
    const lang = langOf[name]!;
    const v = (out[lang] ??= { stream: [], distinct: [], joiner: lang === 'zh' ? '' : ' ' });
    for (const d of loadDataset(name, datasetsDir()).docs) {
      for (const s of seg.segment(`${d.title} ${d.text}`)) if (s.isWordLike) v.stream.push(s.segment.toLowerCase());
    }
  }
  for (const v of Object.values(out)) v.distinct = [...new Set(v.stream)];
  return out;
}

const vocab = vocabularies();
const langs: Lang[] = ['en', 'en', 'en', 'en', 'ru', 'ru', 'ru', 'zh', 'zh', 'zh'];
const words = (lang: Lang, n: number) => Array.from({ length: n }, () => pick(vocab[lang].stream)).join(vocab[lang].joiner);

function* pages(): Generator<Doc> {
  for (let i = 0; i < PAGES; i++) {
    const lang = pick(langs);
    const n = lang === 'zh' ? int(60, 600) : int(40, 400);
    const sentences: string[] = [];
    for (let done = 0; done < n;) {
      const k = Math.min(n - done, int(6, 20));
      sentences.push(`${words(lang, k)}${lang === 'zh' ? '。' : '.'}`);
      done += k;
    }
    yield { id: `p${i}`, title: words(lang, int(2, 6)), text: sentences.join(lang === 'zh' ? '' : ' ') };
  }
}

/** Half the queries draw words by corpus frequency (stop words skipped), half uniformly from the vocabulary. */
function queries(): Array<{ text: string; kind: 'frequent' | 'rare' }> {
  return Array.from({ length: QUERIES }, (_, i) => {
    const lang = pick(langs);
    const kind = i % 2 === 0 ? 'frequent' : 'rare';
    const v = vocab[lang];
    const qs: string[] = [];
    while (qs.length < int(1, 3)) {
      const w = kind === 'frequent' ? pick(v.stream) : pick(v.distinct);
      if (!STOPWORDS.has(w) && !/^\d+$/.test(w)) qs.push(w);
    }
    return { text: qs.join(lang === 'zh' ? '' : ' '), kind };
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => x.toFixed(2);

const docs = [...pages()];
const chars = docs.reduce((s, d) => s + d.title.length + d.text.length, 0);
console.error(`${docs.length} pages, ${(chars / 1e6).toFixed(1)} M chars (mean ${Math.round(chars / docs.length)})`);
const qs = queries();
/** The bench's search: the project's pages, a page of 10, as a user's search asks. */
const searchOn = (index: Parameters<typeof searchDocs>[0], q: string) =>
  searchDocs(index, { projectId: PROJECT, query: q, visibility: ['project'], limit: 10 });
/** "p50 / p99" of one kind of query, ms. */
const p50p99 = (xs: number[]) => `${ms(pct(xs, 50))} / ${ms(pct(xs, 99))}`;
/** Wall-clock and CPU time per query (CPU time is what the machine's other load cannot inflate). */
const run = async (search: (q: string) => Promise<unknown> | unknown, name = '') => {
  for (const q of qs.slice(0, 50)) await search(q.text); // warm-up
  const r = { all: [] as number[], frequent: [] as number[], rare: [] as number[], cpu: [] as number[] };
  for (const q of qs) {
    const t = performance.now();
    const c = process.cpuUsage();
    await search(q.text);
    const cpu = process.cpuUsage(c);
    const d = performance.now() - t;
    r.all.push(d);
    r[q.kind].push(d);
    r.cpu.push((cpu.user + cpu.system) / 1000);
  }
  if (SLOWEST > 0) {
    const slow = qs.map((q, i) => [q.text, r.all[i]!] as const).sort((a, b) => b[1] - a[1]);
    console.error(
      `${name} slowest: ${slow
        .slice(0, SLOWEST)
        .map(([q, d]) => `"${q}" ${ms(d)}`)
        .join(', ')}`,
    );
  }
  return r;
};
if (PG_AB) {
  // Base as it was built (no migration run on it); change opened by this checkout, which migrates it.
  const [baseUrl, changeUrl] = PG_AB;
  const base = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: baseUrl, max: 5 }) }) });
  const change = await openDb({ kind: 'postgres', url: changeUrl!, poolSize: 5 });
  const dbs = [
    ['base', { kysely: base, dialect: 'postgres' as const }],
    ['change', change],
  ] as const;
  let differ = 0;
  for (const q of qs) {
    const [a, b] = [await searchOn(dbs[0][1], q.text), await searchOn(dbs[1][1], q.text)];
    const key = (hits: typeof a) => JSON.stringify(hits.map((h) => [h.refId, h.score.toFixed(9)]));
    if (key(a) !== key(b)) differ++;
  }
  console.log(`${qs.length} queries, ${differ} with different hits or scores; base = ${baseUrl}, change = ${changeUrl}\n`);
  console.log('| round | database | p50 ms | p99 ms | frequent-word p50 / p99 | rare-word p50 / p99 |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (let round = 1; round <= 3; round++) {
    for (const [name, db] of round % 2 ? dbs : [...dbs].reverse()) {
      const r = await run((q) => searchOn(db, q), `${name}, round ${round}`);
      console.log(`| ${round} | ${name} | ${ms(pct(r.all, 50))} | ${ms(pct(r.all, 99))} | ${p50p99(r.frequent)} | ${p50p99(r.rare)} |`);
    }
  }
  await base.destroy();
  await change.close();
  process.exit(0);
}
console.error('building the Stoa index…');

let t0 = performance.now();
const stoa = REUSE ? { db: await openDb({ kind: 'sqlite', file: REUSE }), file: REUSE, close: async () => {} } : await stoaIndex(docs);
const stoaIndexS = (performance.now() - t0) / 1000;
const size = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};
const dbBytes = size(stoa.file) + size(`${stoa.file}-wal`);
console.error(`Stoa indexed in ${stoaIndexS.toFixed(1)} s${MINI ? '; building MiniSearch…' : ''}`);
t0 = performance.now();
const mini = MINI ? miniIndex(docs) : undefined;
const miniIndexS = (performance.now() - t0) / 1000;
const heapMb = process.memoryUsage().heapUsed / 1e6;

const s = await run((q) => searchOn(stoa.db, q), 'SQLite');
let pgRow: [string, typeof s, string] | undefined;
let pgBytes = 0;
if (PG) {
  console.error('building the PostgreSQL index…');
  t0 = performance.now();
  const pgIndex = PG_REUSE
    ? await (async () => {
        const db = await openDb({ kind: 'postgres', url: PG_REUSE, poolSize: 5 });
        return { db, url: PG_REUSE, close: () => db.close(), keep: () => db.close() };
      })()
    : await stoaIndex(docs, undefined, 'postgres', PG_PER_TRANSACTION);
  const pgIndexS = (performance.now() - t0) / 1000;
  const { rows } = await sql<{ mb: number }>`select (pg_database_size(current_database()) / 1e6)::float8 as mb`.execute(pgIndex.db.kysely);
  // Where the database's bytes are: the index's own tables (with their indexes and TOAST) first.
  const tables = await sql<{ name: string; mb: number }>`
    select relname as name, (pg_total_relation_size(oid) / 1e6)::float8 as mb from pg_class
    where relkind = 'r' and relname like 'search%' order by 2 desc`.execute(pgIndex.db.kysely);
  console.error(`PostgreSQL tables (MB): ${tables.rows.map((t) => `${t.name} ${t.mb.toFixed(1)}`).join(', ')}`);
  if (process.env.STOA_BENCH_INSPECT) {
    const q = async (text: string) => console.error(text, JSON.stringify((await sql.raw(text).execute(pgIndex.db.kysely)).rows));
    await q(
      `select count(*) blocks, sum(n) postings, avg(n) avg_n, avg(pg_column_size(b.*)) row_bytes, count(*) filter (where n = 128) full_blocks from search_blocks b`,
    );
    await q(`select n_live_tup, n_dead_tup, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = 'search_blocks'`);
    // Live rows against free space in each part of each search table (pgstattuple, shipped with PostgreSQL).
    await q(`create extension if not exists pgstattuple`);
    await q(`select c.relname as table, p.relname as part, (s.table_len / 1e6)::numeric(8, 1) as mb, (s.tuple_len / 1e6)::numeric(8, 1) as live_mb,
      (s.dead_tuple_len / 1e6)::numeric(8, 1) as dead_mb, (s.free_space / 1e6)::numeric(8, 1) as free_mb
      from pg_class c cross join lateral (select c.oid, c.relname union all select c.reltoastrelid, 'toast' where c.reltoastrelid <> 0
        union all select i.indexrelid, i.indexrelid::regclass::text from pg_index i where i.indrelid = c.oid) p(oid, relname)
      cross join lateral pgstattuple(p.oid) s where c.relkind = 'r' and c.relname like 'search%' and s.table_len > 0 order by s.table_len desc`);
    await q(`select avg(pg_column_size(p)) p, avg(pg_column_size(bnd)) bnd from search_blocks where n = 128`);
  }
  const p = await run((q) => searchOn(pgIndex.db, q), 'PostgreSQL');
  if (JIT_AB) {
    // Altering the function makes PL/pgSQL compile it again on its next call, so its statements are planned anew.
    const jit = await sql<{ on: string }>`select current_setting('jit') as on`.execute(pgIndex.db.kysely);
    for (let round = 1; round <= 2; round++) {
      for (const mode of ['server', 'off'] as const) {
        await sql.raw(`alter function stoa_search_rank ${mode === 'off' ? 'set jit = off' : 'reset jit'}`).execute(pgIndex.db.kysely);
        const r = await run((q) => searchOn(pgIndex.db, q));
        console.error(
          `JIT ${mode === 'off' ? 'off' : `as the server (jit = ${jit.rows[0]!.on})`}, round ${round}: p50 / p99 ${p50p99(r.all)} ms, ` +
            `frequent-word ${p50p99(r.frequent)}, rare-word ${p50p99(r.rare)}`,
        );
      }
    }
  }
  if (PG_KEEP || PG_REUSE) {
    await pgIndex.keep();
    console.error(`kept ${pgIndex.url}`);
  } else await pgIndex.close();
  pgBytes = rows[0]!.mb * 1e6;
  pgRow = ['Stoa (PostgreSQL postings, with snippets)', p, `${PG_REUSE ? 'reused' : `${pgIndexS.toFixed(0)} s`}, ${rows[0]!.mb.toFixed(0)} MB database`];
}
const m = mini ? await run((q) => mini.search(q).slice(0, 10)) : undefined;
// The WAL the build leaves is transient: SQLite's data alone is the file once the WAL is checkpointed into it.
await sql`pragma wal_checkpoint(TRUNCATE)`.execute(stoa.db.kysely);
const fileBytes = size(stoa.file) + size(`${stoa.file}-wal`);
if (KEEP || REUSE) {
  await stoa.db.close();
  console.error(`kept ${stoa.file}`);
} else await stoa.close();

console.log(`${docs.length} pages (${(chars / 1e6).toFixed(1)} M chars), ${qs.length} queries of 1–3 words (en 40 %, ru 30 %, zh 30 %)\n`);
console.log('| engine | p50 ms | p99 ms | p50 / p99 CPU ms | p50 / p99 frequent-word | p50 / p99 rare-word | build |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name, r, build] of [
  [
    'Stoa (SQLite FTS5, with snippets)',
    s,
    `${REUSE ? 'reused' : `${stoaIndexS.toFixed(0)} s`}, ${(dbBytes / 1e6).toFixed(0)} MB on disk (${(fileBytes / 1e6).toFixed(0)} MB checkpointed)`,
  ],
  ...(pgRow ? [pgRow] : []),
  ...(m ? [['MiniSearch (in memory, ids only)', m, `${miniIndexS.toFixed(0)} s, ~${heapMb.toFixed(0)} MB heap (both indexes' docs incl.)`] as const] : []),
] as const) {
  console.log(`| ${name} | ${ms(pct(r.all, 50))} | ${ms(pct(r.all, 99))} | ${p50p99(r.cpu)} | ${p50p99(r.frequent)} | ${p50p99(r.rare)} | ${build} |`);
}
if (pgRow) {
  const x = (n: number) => `${(pgBytes / n).toFixed(2)}×`;
  console.log(`\nPostgreSQL database ÷ SQLite: ${x(dbBytes)} its file with the WAL the build left, ${x(fileBytes)} its file checkpointed`);
  console.log(`PostgreSQL ÷ SQLite p99: ${(pct(pgRow[1].all, 99) / pct(s.all, 99)).toFixed(2)}×`);
  // Issue 30 item 4: PostgreSQL at SQLite's level at the tail, in an index under 3× SQLite's size (its data alone,
  // the file once checkpointed, is the strict reading), and under 50 ms at 100,000 pages.
  const pages = `${docs.length.toLocaleString('en')} pages`;
  reportAims([
    {
      aim: `search: PostgreSQL p99 ÷ SQLite p99, ${pages}`,
      value: pct(pgRow[1].all, 99) / pct(s.all, 99),
      line: 2,
      unit: '×',
      better: 'lower',
      note: `${qs.length} queries`,
    },
    ...(docs.length >= 100_000
      ? [
          {
            aim: `search: PostgreSQL p99, ${pages}`,
            value: pct(pgRow[1].all, 99),
            line: 50,
            unit: 'ms',
            better: 'lower',
            strict: true,
            note: `${qs.length} queries`,
          } satisfies Aim,
        ]
      : []),
    {
      aim: `search: PostgreSQL database ÷ SQLite's file checkpointed, ${pages}`,
      value: pgBytes / fileBytes,
      line: 3,
      unit: '×',
      better: 'lower',
      strict: true,
      note: `${(pgBytes / dbBytes).toFixed(2)}× the file with the WAL its build left`,
    },
  ]);
}
