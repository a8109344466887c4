import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { DB } from '@stoa/db';
import pg from 'pg';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { indexDoc, removeDoc, searchDocs, type SearchQuery } from './index.js';
import { seededRandom as rng, seedProject } from './test-helpers.js';

const INDEXED_DOCS = 300;
const BULK_DOCS = 20_000;
const VOCAB = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(16)}x`);
const TABLES = new Set(['search_docs', 'search_blocks', 'search_singles', 'search_bodies']);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const seqScans = (n: PlanNode): string[] => [
  ...(n['Node Type'] === 'Seq Scan' && TABLES.has(n['Relation Name'] ?? '') ? [n['Relation Name']!] : []),
  ...(n.Plans ?? []).flatMap(seqScans),
];

// A populated, analysed database whose planner would scan if the statements did not fit the indexes: three
// projects of Zipf-distributed words (common words in most pages), several visibilities and kinds.
describe.skipIf(!testDbKinds().includes('postgres'))('PostgreSQL search plans', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let logged: Kysely<DB>;
  const notices: string[] = [];

  beforeAll(async () => {
    t = await createTestDb('postgres');
    const db = t.db.kysely;
    const rand = rng(7);
    const word = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * rand() ** 3))]!;
    for (const p of ['prj_plan', 'prj_other']) await seedProject(db, p);
    // Most rows are written set-based (as a restore or a migration would), in the shape indexDoc gives them:
    // Zipf-distributed terms (common words in most pages), several kinds and visibilities, two projects.
    await sql`insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
      select case when g % 3 = 0 then 'prj_other' else 'prj_plan' end, case when g % 5 = 0 then 'memory' else 'wiki' end,
        'b' || g, 'dir' || (g % 20) || '/bulk' || g, 'bulk ' || g, case when g % 7 = 0 then 'channel:c' || (g % 3) else 'project' end,
        '2024-01-01T00:00:00.000Z', 8 + g % 16
      from generate_series(1, ${BULK_DOCS}) g`.execute(db);
    await sql`insert into search_bodies (doc_id, body) select id, title from search_docs`.execute(db);
    // Their postings are packed as indexDoc packs them (stoa_search_add, migrations 040 and 052); these pages are never
    // removed, so their postings need not be those of their bodies.
    await sql`with p as (
        select d.project_id, w.term, d.id, 0 as tt, w.tf, d.ntokens
        from search_docs d cross join lateral (
          select 'w' || to_hex(floor(3000 * power((abs(hashtext(d.id || ':' || g)) % 1000003) / 1000003.0, 3))::int) || 'x' as term,
            count(*)::int as tf
          from generate_series(1, d.ntokens) g group by 1) w
        -- A word of its own in each page, as most words of a real index are (migration 052 keeps them as singles).
        union all select d.project_id, 'u' || d.id, d.id, 0, 1, d.ntokens from search_docs d)
      select stoa_search_add(array_agg(project_id), array_agg(id), array_agg(term), array_agg(tt), array_agg(tf), array_agg(ntokens)) from p`.execute(db);
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < INDEXED_DOCS; i++) {
        const body = Array.from({ length: 30 + Math.floor(rand() * 60) }, word).join(' ');
        await indexDoc(
          { kysely: trx, dialect: 'postgres' },
          {
            projectId: 'prj_plan',
            kind: i % 5 === 0 ? 'memory' : 'wiki',
            refId: `d${i}`,
            path: `dir${i % 20}/page${i}`,
            title: `${word()} ${word()}`,
            body,
            visibility: i % 7 === 0 ? `channel:c${i % 3}` : 'project',
            updatedAt: '2024-01-01T00:00:00.000Z',
          },
        );
      }
    });
    await sql`analyze`.execute(db);
    // One connection, so the session settings below hold for every statement of a search.
    const pool = new pg.Pool({ connectionString: t.url, max: 1, idleTimeoutMillis: 0 });
    pool.on('connect', (c) => c.on('notice', (n) => notices.push(n.message ?? '')));
    // A connection the server ends (the database dropped `with (force)`) is reported here, not thrown at the run.
    pool.on('error', () => undefined);
    logged = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }, 240_000);
  afterAll(async () => {
    await logged?.destroy();
    await t?.cleanup();
  });

  const cases: Array<[string, Partial<SearchQuery>]> = [
    ['one common word', { query: VOCAB[0] }],
    ['one rare word', { query: VOCAB[2_500] }],
    ['common and rare words (AND, then OR to fill the page)', { query: `${VOCAB[1]} ${VOCAB[900]} ${VOCAB[2_900]}` }],
    ['a kind and a path prefix', { query: VOCAB[3], kinds: ['memory'], pathPrefix: 'dir5' }],
    ['a path prefix ending in /', { query: VOCAB[3], pathPrefix: 'dir4/' }],
    ['a later page', { query: VOCAB[2], offset: 40, limit: 20 }],
  ];

  /** The plans of every statement `work` runs on the logged connection, the functions' inner ones included. */
  const plansOf = async (work: () => Promise<unknown>) => {
    await sql`load 'auto_explain'`.execute(logged);
    for (const set of ['log_min_duration = 0', 'log_nested_statements = on', "log_format = 'json'", "log_level = 'notice'"])
      await sql.raw(`set auto_explain.${set}`).execute(logged);
    notices.length = 0;
    await work();
    await sql`set auto_explain.log_min_duration = -1`.execute(logged);
    return notices.filter((m) => m.includes('plan:')).map((m) => JSON.parse(m.slice(m.indexOf('plan:') + 5)) as { 'Query Text': string; Plan: PlanNode });
  };
  const relations = (n: PlanNode): string[] => [...(n['Relation Name'] ? [n['Relation Name']] : []), ...(n.Plans ?? []).flatMap(relations)];

  it("no sequential scan over the index tables when a page takes a word's single, makes one, and goes", async () => {
    const idx = { kysely: logged, dialect: 'postgres' } as const;
    const page = (body: string) => ({
      projectId: 'prj_plan',
      kind: 'wiki',
      refId: 'singles',
      path: 'dir1/singles',
      title: 'singles',
      body,
      visibility: 'project',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });
    // 'u1' is a bulk page's own word (a single); 'zzsolitary' is in no page.
    const plans = await plansOf(async () => {
      await indexDoc(idx, page(`u1 ${VOCAB[0]}`));
      await indexDoc(idx, page(`zzsolitary ${VOCAB[0]}`));
      await removeDoc(idx, { projectId: 'prj_plan', kind: 'wiki', refId: 'singles' });
    });
    expect(plans.some((p) => relations(p.Plan).includes('search_singles'))).toBe(true);
    for (const p of plans) expect({ sql: p['Query Text'], scans: seqScans(p.Plan) }).toEqual({ sql: p['Query Text'], scans: [] });
  });

  // The ranking runs inside stoa_search_rank (migration 027), so EXPLAIN of the statement the client sends would
  // show only a function call. auto_explain reports the plan of every statement actually run, the function's
  // inner ones included, as a notice to this session.
  it.each(cases)('no sequential scan over the index tables: %s', async (_name, q) => {
    let hits: unknown[] = [];
    const plans = await plansOf(async () => {
      hits = await searchDocs({ kysely: logged, dialect: 'postgres' }, { projectId: 'prj_plan', query: '', visibility: ['project', 'channel:c1'], ...q });
    });
    expect(hits.length).toBeGreaterThan(0);
    // The ranking itself was seen (the test cannot pass by seeing no plan at all).
    expect(plans.some((p) => relations(p.Plan).includes('search_blocks'))).toBe(true);
    for (const p of plans) expect({ sql: p['Query Text'], scans: seqScans(p.Plan) }).toEqual({ sql: p['Query Text'], scans: [] });
  });
});
