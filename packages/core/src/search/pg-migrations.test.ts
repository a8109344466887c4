import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { DB } from '@stoa/db';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { indexDoc, indexDocs, removeDoc, searchDocs, type SearchDocInput } from './index.js';
import { seededRandom as rng, seedProject } from './test-helpers.js';

const VOCAB = Array.from({ length: 200 }, (_, i) => `v${i.toString(36)}m`);
const ADMIN_URL = process.env.STOA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Zipf-like pages in two projects: the commonest words fill blocks of 128, the rarest have one posting. */
function pages(): SearchDocInput[] {
  const rand = rng(23);
  const word = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * rand() ** 3))]!;
  return Array.from({ length: 700 }, (_, i) => ({
    projectId: i % 5 === 0 ? 'prj_b' : 'prj_a',
    kind: 'wiki',
    refId: `d${i}`,
    path: `dir${i % 4}/p${i}`,
    title: Array.from({ length: 1 + (i % 3) }, word).join(' '),
    body: Array.from({ length: 10 + Math.floor(rand() * 80) }, word).join(' '),
    visibility: 'project',
    updatedAt: '2024-01-01T00:00:00.000Z',
  }));
}

/** The PostgreSQL migrations of @stoa/db whose names pass `keep`, as its migrator loads them. */
async function migrations(keep: (name: string) => boolean): Promise<Record<string, Migration>> {
  const folder = fileURLToPath(new URL('../../../db/src/migrations/pg/', import.meta.url));
  const out: Record<string, Migration> = {};
  for (const file of (await readdir(folder)).filter((n) => /^\d{3}_[a-z0-9_]+\.ts$/.test(n)).sort()) {
    const name = file.replace(/\.ts$/, '');
    if (keep(name)) out[name] = (await import(pathToFileURL(`${folder}${file}`).href)) as Migration;
  }
  return out;
}

async function migrate(db: Kysely<DB>, keep: (name: string) => boolean): Promise<void> {
  const found = await migrations(keep);
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => found } }).migrateToLatest();
  if (error) throw error;
}

// Migration 049 rewrites the postings of an existing installation (offsets in int4, no term table), and migration
// 052 leaves its blocks of one posting where they are while new writes make singles: an index built and churned
// before either must rank as one built after it, and take further writes as one.
describe.skipIf(!testDbKinds().includes('postgres'))('Migrations 049 and 052 on an existing PostgreSQL index', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it.each(['049', '052'])(
    'an index built before migration %s keeps hits, order and scores, before and after more writes',
    async (cut) => {
      const name = `stoa_test_${cut}_${Date.now()}_${randomBytes(4).toString('hex')}`;
      // A connection that the server ends (a database dropped "with (force)" sends 57P01 to every session in it)
      // emits 'error'; without a listener that is an uncaught exception, which fails the whole run (CI saw it here).
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      admin.on('error', () => undefined);
      await admin.connect();
      await admin.query(`create database ${name}`);
      const oldPool = new pg.Pool({ connectionString: ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), max: 2 });
      oldPool.on('error', () => undefined);
      const old = new Kysely<DB>({ dialect: new PostgresDialect({ pool: oldPool }) });
      cleanups.push(async () => {
        await old.destroy();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      });
      await migrate(old, (n) => n < cut);
      const all = pages();
      const final = all.map((d, i) => (i % 9 === 0 ? { ...d, body: `${d.body} ${VOCAB[0]} ${VOCAB[199]}` } : d));
      for (const p of ['prj_a', 'prj_b']) await seedProject(old, p);
      const pg0 = { kysely: old, dialect: 'postgres' } as const;
      for (let i = 0; i < all.length; i += 100) await indexDocs(pg0, all.slice(i, i + 100));
      for (let i = 0; i < all.length; i += 9) await indexDoc(pg0, final[i]!);
      for (let i = 0; i < 10; i++) await indexDoc(pg0, { ...all[i]!, refId: `gone${i}`, path: `gone/${i}` });
      for (let i = 0; i < 10; i++) await removeDoc(pg0, { projectId: all[i]!.projectId, kind: 'wiki', refId: `gone${i}` });
      await migrate(old, () => true);

      const t = await createTestDb('postgres');
      cleanups.push(t.cleanup);
      const fresh = t.db.kysely;
      for (const p of ['prj_a', 'prj_b']) await seedProject(fresh, p);
      for (let i = 0; i < final.length; i += 100) await indexDocs({ kysely: fresh, dialect: 'postgres' }, final.slice(i, i + 100));

      const tables = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = 'search_term_df'`.execute(old);
      expect(tables.rows[0]!.n).toBe(0);
      const same = async () => {
        for (const projectId of ['prj_a', 'prj_b']) {
          for (const query of [VOCAB[0]!, `${VOCAB[1]} ${VOCAB[7]}`, VOCAB[199]!, `${VOCAB[0]} ${VOCAB[150]}`, 'zunique', `${VOCAB[198]} ${VOCAB[197]}`]) {
            const q = { projectId, query, visibility: ['project'], limit: 20 };
            const [a, b] = [await searchDocs({ kysely: fresh, dialect: 'postgres' }, q), await searchDocs(pg0, q)];
            if (query !== 'zunique') expect(a.length).toBeGreaterThan(0);
            expect(b.map((h) => h.refId)).toEqual(a.map((h) => h.refId));
            for (const [i, h] of a.entries()) expect(b[i]!.score).toBeCloseTo(h.score, 9);
          }
        }
      };
      await same();
      // The rarest words (blocks of one posting before 052) gain pages, lose them, and a new word comes and goes.
      const more = [
        { ...final[3]!, refId: 'more1', path: 'more/1', body: `${VOCAB[199]} ${VOCAB[198]} zunique` },
        { ...final[5]!, refId: 'more2', path: 'more/2', body: `${VOCAB[197]} ${VOCAB[198]}` },
      ];
      for (const db of [old, fresh]) {
        const idx = { kysely: db, dialect: 'postgres' } as const;
        for (const d of more) await indexDoc(idx, d);
        await removeDoc(idx, { projectId: more[1]!.projectId, kind: 'wiki', refId: 'more2' });
        await indexDoc(idx, { ...more[0]!, refId: 'more3', path: 'more/3' });
      }
      await same();
      expect((await searchDocs(pg0, { projectId: more[0]!.projectId, query: 'zunique', visibility: ['project'] })).length).toBe(2);
    },
    300_000,
  );

  it('keeps a block within int4 offsets of its first document when ids jump past 2^31', async () => {
    const words = (i: number) => `${VOCAB[0]} ${VOCAB[1 + (i % 3)]} ${VOCAB[100 + i]}`;
    const docs = Array.from({ length: 24 }, (_, i) => ({ ...pages()[i]!, projectId: 'prj_a', title: `t${i}`, body: words(i) }));
    const built: Array<Kysely<DB>> = [];
    for (const jump of [false, true]) {
      const t = await createTestDb('postgres');
      cleanups.push(t.cleanup);
      const db = t.db.kysely;
      await seedProject(db, 'prj_a');
      const idx = { kysely: db, dialect: 'postgres' } as const;
      await indexDocs(idx, docs.slice(0, 6));
      // The next documents' ids are more than 2^31 above the first blocks' first_doc.
      if (jump) await sql`select setval(pg_get_serial_sequence('search_docs', 'id'), ${2 ** 31 + 100})`.execute(db);
      await indexDocs(idx, docs.slice(6, 20));
      // Low and high ids in one batch: old documents re-indexed beside new ones.
      await indexDocs(idx, [...docs.slice(0, 3).map((d) => ({ ...d, body: `${d.body} ${VOCAB[1]}` })), ...docs.slice(20)]);
      await removeDoc(idx, { projectId: 'prj_a', kind: 'wiki', refId: docs[4]!.refId });
      built.push(db);
    }
    const [low, high] = built as [Kysely<DB>, Kysely<DB>];
    const span = await sql<{ lo: string; hi: string; wide: number }>`
      select (select min(id) from search_docs)::text as lo, (select max(id) from search_docs)::text as hi,
        (select count(*)::int from search_blocks where last_doc - first_doc >= 2147483648) as wide`.execute(high);
    expect(BigInt(span.rows[0]!.hi) - BigInt(span.rows[0]!.lo)).toBeGreaterThan(2n ** 31n);
    expect(span.rows[0]!.wide).toBe(0);
    for (const query of [VOCAB[0]!, VOCAB[1]!, `${VOCAB[2]} ${VOCAB[105]}`]) {
      const q = { projectId: 'prj_a', query, visibility: ['project'], limit: 30 };
      const [a, b] = [await searchDocs({ kysely: low, dialect: 'postgres' }, q), await searchDocs({ kysely: high, dialect: 'postgres' }, q)];
      expect(a.length).toBeGreaterThan(0);
      expect(b.map((h) => [h.refId, h.score.toFixed(9)])).toEqual(a.map((h) => [h.refId, h.score.toFixed(9)]));
    }
    const all = await searchDocs({ kysely: high, dialect: 'postgres' }, { projectId: 'prj_a', query: VOCAB[0]!, visibility: ['project'], limit: 30 });
    expect(all.length).toBe(23);
  }, 120_000);
});
