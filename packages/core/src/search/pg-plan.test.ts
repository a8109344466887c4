import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { DB } from '@stoa/db';
import pg from 'pg';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { indexDoc, searchDocs, type SearchQuery } from './index.js';
import { seededRandom as rng, seedProject } from './test-helpers.js';

const INDEXED_DOCS = 300;
const BULK_DOCS = 20_000;
const VOCAB = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(16)}x`);
const TABLES = new Set(['search_docs', 'search_postings', 'search_bodies', 'search_term_df']);

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
  let client: pg.Client;
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];

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
    await sql`insert into search_postings (project_id, term, doc_id, tf_title, tf_body, ntokens, kind, visibility)
      select d.project_id, w.term, d.id, 0, w.tf, d.ntokens, d.kind, d.visibility
      from search_docs d cross join lateral (
        select 'w' || to_hex(floor(3000 * power((abs(hashtext(d.id || ':' || g)) % 1000003) / 1000003.0, 3))::int) || 'x' as term,
          count(*)::int as tf
        from generate_series(1, d.ntokens) g group by 1) w`.execute(db);
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
    logged = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.url, max: 1 }) }),
      log: (e) => {
        if (e.level === 'query') statements.push({ sql: e.query.sql, parameters: e.query.parameters });
      },
    });
    client = new pg.Client({ connectionString: t.url });
    await client.connect();
  }, 240_000);
  afterAll(async () => {
    await client?.end();
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

  it.each(cases)('no sequential scan over the index tables: %s', async (_name, q) => {
    statements.length = 0;
    const hits = await searchDocs({ kysely: logged, dialect: 'postgres' }, { projectId: 'prj_plan', query: '', visibility: ['project', 'channel:c1'], ...q });
    expect(hits.length).toBeGreaterThan(0);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      const { rows } = await client.query(`explain (format json) ${s.sql}`, s.parameters as unknown[]);
      const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan;
      expect({ sql: s.sql, scans: seqScans(plan) }).toEqual({ sql: s.sql, scans: [] });
    }
  });
});
