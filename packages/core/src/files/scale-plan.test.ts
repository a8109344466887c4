import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, fillProject, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { runOperation } from '../operations/index.js';

// A project big enough that reading every file of it, or of its big folder, stands out from reading a page:
// 20 files in the root, 3,000 in `big`, 20,000 in folders of 100 (bench/files-scale.ts measures 10k–1M).
const BIG = 3_000;
const paths = [
  ...Array.from({ length: 20 }, (_, i) => `root-${i}.txt`),
  ...Array.from({ length: BIG }, (_, i) => `big/file-${String(i).padStart(5, '0')}.txt`),
  ...Array.from({ length: 20_000 }, (_, i) => `area-${Math.floor(i / 100)}/name-${String(i).padStart(6, '0')}.md`),
];
// No statement may read more rows of `files` than a page and its look-ahead (PostgreSQL, counted by EXPLAIN ANALYZE).
const MOST_ROWS = 300;

/** A statement built by Kysely for the call (a query tree), or one built once and run again (hot-query.ts). */
type Statement = { node: RootOperationNode; queryId: Parameters<KyselyPlugin['transformQuery']>[0]['queryId'] } | { compiled: CompiledQuery };
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}
const rowsRead = (n: PlanNode): number =>
  ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * (n['Actual Loops'] ?? 1);
const fileScans = (n: PlanNode): PlanNode[] => [...(n['Relation Name'] === 'files' ? [n] : []), ...(n.Plans ?? []).flatMap(fileScans)];

// What each operation's statements read of `files`, as the engine plans them: a listing, a name search, a stat,
// a read and the usage cost what their answer costs, not what the project holds (issue 30, item 5).
describe.each(testDbKinds())('the cost of reading a big project does not grow with it (%s)', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  const seen: Statement[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: (args) => {
      seen.push({ node: args.node, queryId: args.queryId });
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: 2 ** 40 });
    const admin = await t.admin();
    await fillProject(admin, paths);
    // A plugin sees the statements built for the call; the prebuilt ones (hot-query.ts) reach the database by
    // `executeQuery` with their SQL, whichever test file compiled them first, and are recorded there.
    const recorded = admin.platform.db.kysely.withPlugin(recorder);
    const kysely = new Proxy(recorded, {
      get: (target, key) => {
        if (key === 'executeQuery')
          return (q: CompiledQuery, ...rest: unknown[]) => {
            seen.push({ compiled: q });
            return (target.executeQuery as (...a: unknown[]) => unknown).call(target, q, ...rest);
          };
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    ctx = { ...admin, platform: { ...admin.platform, db: { ...admin.platform.db, kysely } } };
    // Name search's sample of names (files/name-probe.ts) is taken once per process and then every few
    // minutes, a fixed SAMPLE rows whatever the size: taken here, before the statements are counted.
    await runOperation(ctx, 'files.find', { project: ctx.project.id, q: 'warm', limit: 1 });
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  /** Each statement `run` made, with what its plan reads of `files`: a full scan or (PostgreSQL) too many rows. */
  async function readsOfFiles(run: () => Promise<unknown>): Promise<Array<{ sql: string; problem: string | null }>> {
    seen.length = 0;
    await run();
    const db = t.platform.db.kysely;
    const out: Array<{ sql: string; problem: string | null }> = [];
    for (const s of [...seen]) {
      const q = 'compiled' in s ? s.compiled : db.getExecutor().compileQuery(s.node, s.queryId);
      if (!/\bfiles\b/.test(q.sql) || !/^\s*select/i.test(q.sql)) continue;
      if (kind === 'postgres') {
        const r = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (analyze, format json) ${q.sql}`, [...q.parameters]),
        );
        const scans = fileScans(r.rows[0]!['QUERY PLAN'][0]!.Plan);
        const bad = scans.find((n) => n['Node Type'] === 'Seq Scan' || rowsRead(n) > MOST_ROWS);
        out.push({ sql: q.sql, problem: bad ? `${bad['Node Type']} reads ${rowsRead(bad)} rows` : null });
      } else {
        const r = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
        // A search of `files` that is not a point lookup (by id or path) reads a range: the statement must stop
        // after a page (LIMIT) or count only the root's own files.
        const ranges = r.rows.map((x) => x.detail).filter((d) => /^(SCAN|SEARCH) files\b/.test(d) && !/\b(id|path)=\?\)/.test(d));
        const bounded = /\blimit\b/i.test(q.sql) || /dir = ''/.test(q.sql);
        const bad = ranges.find((d) => d.startsWith('SCAN') || !bounded);
        out.push({ sql: q.sql, problem: bad ?? null });
      }
    }
    return out;
  }

  const op = (id: string, input: Record<string, unknown>) => () => runOperation(ctx, id, { project: ctx.project.id, ...input });
  it.each([
    ['the root folder', op('files.folder', { folder: '', limit: 100 })],
    ['the first page of a 3,000-file folder', op('files.folder', { folder: 'big', limit: 100 })],
    ['a folder of 100 files', op('files.folder', { folder: 'area-7', limit: 100 })],
    ['a name found once', op('files.find', { q: 'name-012345', limit: 100 })],
    ['a name found nowhere', op('files.find', { q: 'zzqx', limit: 100 })],
    ['a rare name of common trigrams', op('files.find', { q: 'me-01234', limit: 100 })],
    ['a frequent name', op('files.find', { q: 'name-0', limit: 100 })],
    ['stat', op('files.stat', { path: 'area-150/name-015000.md' })],
    ['the usage, with its file count', op('files.usage', {})],
  ] as const)('%s', async (_name, run) => {
    const reads = await readsOfFiles(run);
    expect(seen.length).toBeGreaterThan(0);
    for (const r of reads) expect(r).toEqual({ sql: r.sql, problem: null });
  });

  const names = paths.map((p) => p.slice(p.lastIndexOf('/') + 1).toLowerCase());
  const trigrams = (s: string): string[] => [...new Set(Array.from({ length: Math.max(0, s.length - 2) }, (_, i) => s.slice(i, i + 3)))];
  /** The postings of these trigrams' lists, as a share of the names: what reading them costs the index. */
  const postings = (tris: string[]): number => tris.reduce((k, tri) => k + names.filter((n) => n.includes(tri)).length, 0) / names.length;

  /**
   * The trigrams the index was asked for by the statements of `run`: SQLite, every trigram of the MATCH string's
   * quoted terms (a phrase reads each of its trigrams' lists); PostgreSQL, those of the LIKE patterns of the
   * pg_trgm index condition.
   */
  async function indexTrigrams(run: () => Promise<unknown>): Promise<string[]> {
    seen.length = 0;
    await run();
    const db = t.platform.db.kysely;
    const terms: string[] = [];
    for (const s of [...seen]) {
      const q = 'compiled' in s ? s.compiled : db.getExecutor().compileQuery(s.node, s.queryId);
      if (kind === 'sqlite') {
        if (!/files_name_fts match/.test(q.sql)) continue;
        const match = String(q.parameters[0]);
        for (const m of match.matchAll(/"((?:[^"]|"")*)"/g)) terms.push(m[1]!.replace(/""/g, '"'));
      } else {
        if (!/\bfiles\b/.test(q.sql) || !/^\s*select/i.test(q.sql)) continue;
        const r = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]));
        const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];
        for (const n of walk(r.rows[0]!['QUERY PLAN'][0]!.Plan))
          if (n['Index Name'] === 'files_name_trgm') for (const m of (n['Index Cond'] ?? '').matchAll(/'%((?:[^']|'')*)%'/g)) terms.push(m[1]!);
      }
    }
    return terms.flatMap(trigrams);
  }

  // "me-00008": 10 names hold it, but "e-0" is in every name, "me-" in 87 % and "-00" in half: asking the index
  // for the whole needle reads about 2.6 postings per file of the project, and that grows with it (issue 30,
  // item 5). Even its rarest trigram, "008", is in 5 % of the names. The probe asks for two trigrams only.
  it('a needle made of common trigrams does not read the lists of all of them', async () => {
    const needle = 'me-00008';
    const asked = await indexTrigrams(op('files.find', { q: needle, limit: 100 }));
    expect(asked.length).toBeGreaterThan(0);
    expect(postings(asked)).toBeLessThan(postings(trigrams(needle)) / 2);
    const r = (await runOperation(ctx, 'files.find', { project: ctx.project.id, q: needle, limit: 100 })) as { files: Array<{ path: string }> };
    expect(r.files.map((f) => f.path)).toEqual(paths.filter((p) => p.slice(p.lastIndexOf('/') + 1).includes(needle)).sort());
  });

  it('the counts read from the folder index are the true ones', async () => {
    const u = (await runOperation(ctx, 'files.usage', { project: ctx.project.id })) as { files: number };
    expect(u.files).toBe(paths.length);
    const big = (await runOperation(ctx, 'files.folder', { project: ctx.project.id, folder: 'big', limit: 10 })) as { total: number };
    expect(big.total).toBe(BIG);
    const root = (await runOperation(ctx, 'files.folder', { project: ctx.project.id, folder: '', limit: 10 })) as { total: number; folders: unknown[] };
    expect(root.total).toBe(20);
  });
});
