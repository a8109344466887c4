import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { indexDoc, removeDoc, removeDocsByPath, searchDocs, type SearchDocInput } from './index.js';
import { seededRandom, seedProject } from './test-helpers.js';

const doc = (projectId: string, refId: string, title: string, body: string): SearchDocInput => ({
  projectId,
  kind: 'wiki',
  refId,
  path: `p/${refId}`,
  title,
  body,
  visibility: 'project',
  updatedAt: '2024-01-01T00:00:00.000Z',
});
const FINAL = [
  doc('prj_a', 'd0', 'Boundary layers', 'The boundary layer on a flat plate grows; turbulent boundary layers grow faster.'),
  doc('prj_a', 'd1', 'Heat transfer', 'Rewritten: heat flows through the heated boundary layer at speed.'),
  doc('prj_a', 'd2', 'Flutter', 'Flutter of heated panels at high speed.'),
  ...Array.from({ length: 8 }, (_, i) => doc('prj_a', `r${i}`, `Recipe ${i}`, `Bake the bread for ${i + 20} minutes.`)),
];
const QUERIES = ['boundary layer', 'heated speed', 'bread', 'turbulent flutter'];

// The document and term counts BM25 reads on PostgreSQL are kept by triggers (migration 011): after pages are
// replaced, removed one by one, by path, and by a project's cascade, the scores must equal those of a fresh
// index of what remains.
describe.skipIf(!testDbKinds().includes('postgres'))('PostgreSQL search statistics', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });
  const fresh = async () => {
    const t = await createTestDb('postgres');
    cleanups.push(t.cleanup);
    const db = t.db.kysely;
    await seedProject(db, 'prj_a');
    return db;
  };
  const scores = async (db: Kysely<DB>) =>
    Promise.all(
      QUERIES.map(async (query) =>
        (await searchDocs({ kysely: db, dialect: 'postgres' }, { projectId: 'prj_a', query, visibility: ['project'] })).map((h) => [
          h.refId,
          h.score.toFixed(9),
        ]),
      ),
    );

  /** One search's hits as [ref, score to 9 places], the form two indexes are compared in. */
  const ranked = async (db: Kysely<DB>, query: string, limit?: number) =>
    (await searchDocs({ kysely: db, dialect: 'postgres' }, { projectId: 'prj_a', query, visibility: ['project'], ...(limit ? { limit } : {}) })).map((h) => [
      h.refId,
      h.score.toFixed(9),
    ]);

  it('follow replacements, removals and cascades', async () => {
    const churned = await fresh();
    await indexDoc({ kysely: churned, dialect: 'postgres' }, doc('prj_a', 'd1', 'Heat', 'Heat transfer in the laminar boundary layer of a heated plate.'));
    await indexDoc({ kysely: churned, dialect: 'postgres' }, doc('prj_a', 'gone', 'Temporary', 'boundary boundary speed layer bread'));
    await indexDoc({ kysely: churned, dialect: 'postgres' }, { ...doc('prj_a', 'old', 'Old', 'heated bread layer'), path: 'old/one' });
    // More pages in one folder than a removal reads at once (pgRemove's chunks).
    for (let i = 0; i < 40; i++)
      await indexDoc(
        { kysely: churned, dialect: 'postgres' },
        { ...doc('prj_a', `many${i}`, `Many ${i}`, `layer ${i} of bread and speed`), path: `old/many/${i}` },
      );
    await seedProject(churned, 'prj_c');
    await indexDoc({ kysely: churned, dialect: 'postgres' }, doc('prj_c', 'x', 'Speed', 'speed of the boundary layer over flutter panels'));
    for (const d of FINAL) await indexDoc({ kysely: churned, dialect: 'postgres' }, d);
    await removeDoc({ kysely: churned, dialect: 'postgres' }, { projectId: 'prj_a', kind: 'wiki', refId: 'gone' });
    await removeDocsByPath({ kysely: churned, dialect: 'postgres' }, { projectId: 'prj_a', kind: 'wiki', path: 'old', nested: true });
    await sql`delete from projects where id = 'prj_c'`.execute(churned);

    const clean = await fresh();
    for (const d of FINAL) await indexDoc({ kysely: clean, dialect: 'postgres' }, d);
    const expected = await scores(clean);
    expect(expected.flat().length).toBeGreaterThan(4);
    expect(await scores(churned)).toEqual(expected);
    // No posting outlives its page (migration 050 finds a page's postings from its stored title and body).
    const postings = async (db: Kysely<DB>) =>
      (await sql<{ term: string; n: number }>`select term, sum(n)::int as n from search_all_blocks group by term order by term`.execute(db)).rows;
    expect(await postings(churned)).toEqual(await postings(clean));
  });

  it("keep a word's only posting in a single row, moved into a block when the word gains a page", async () => {
    const db = await fresh();
    const pg = { kysely: db, dialect: 'postgres' as const };
    const where = async (term: string) =>
      (
        await sql<{ singles: number; blocks: number; postings: number }>`select
          (select count(*)::int from search_singles where term = ${term}) as singles,
          (select count(*)::int from search_blocks where term = ${term}) as blocks,
          (select coalesce(sum(n), 0)::int from search_all_blocks where term = ${term}) as postings`.execute(db)
      ).rows[0];
    const found = async (query: string) => (await searchDocs(pg, { projectId: 'prj_a', query, visibility: ['project'] })).map((h) => h.refId).sort();
    await indexDoc(pg, doc('prj_a', 'x1', 'Zephyr', 'a zephyr over the marsh'));
    expect(await where('marsh')).toEqual({ singles: 1, blocks: 0, postings: 1 });
    expect(await found('marsh zephyr')).toEqual(['x1']);
    await indexDoc(pg, doc('prj_a', 'x2', 'Marsh', 'the marsh at dawn'));
    expect(await where('marsh')).toEqual({ singles: 0, blocks: 1, postings: 2 });
    expect(await found('marsh')).toEqual(['x1', 'x2']);
    await removeDoc(pg, { projectId: 'prj_a', kind: 'wiki', refId: 'x1' });
    await removeDoc(pg, { projectId: 'prj_a', kind: 'wiki', refId: 'x2' });
    expect(await where('marsh')).toEqual({ singles: 0, blocks: 0, postings: 0 });
    expect(await where('zephyr')).toEqual({ singles: 0, blocks: 0, postings: 0 });
    expect(await found('marsh')).toEqual([]);

    // A word with a single gains two pages at once: the first writer takes the single into a block and holds it, the
    // second must neither wait for it nor count the single again. Every page is found once, with the scores of an
    // index written one page at a time.
    const held: Array<() => void> = [];
    const writer = (d: SearchDocInput) =>
      db.transaction().execute(async (trx) => {
        await indexDoc({ kysely: trx, dialect: 'postgres' }, d);
        await new Promise<void>((resolve) => held.push(resolve));
      });
    const pages = ['y1', 'y2', 'y3'].map((ref) => doc('prj_a', ref, `Quagga ${ref}`, `the quagga grazed near ${ref}`));
    await indexDoc(pg, pages[0]!);
    expect(await where('quagga')).toEqual({ singles: 1, blocks: 0, postings: 1 });
    const first = writer(pages[1]!);
    await expect.poll(() => held.length).toBe(1);
    const second = writer(pages[2]!);
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(2);
    for (const release of held) release();
    await Promise.all([first, second]);
    expect(await where('quagga')).toEqual({ singles: 0, blocks: 2, postings: 3 });
    const clean = await fresh();
    for (const d of pages) await indexDoc({ kysely: clean, dialect: 'postgres' }, d);
    expect(await ranked(db, 'quagga grazed')).toEqual(await ranked(clean, 'quagga grazed'));
    expect((await ranked(db, 'quagga grazed')).length).toBe(3);
  });

  it('keep every posting once when many writers add, replace and remove pages of shared rare words at once', async () => {
    // Words in a few pages each, so writers meet on singles (taking, skipping and making them) and on small blocks.
    const rand = seededRandom(11);
    const words = Array.from({ length: 30 }, (_, i) => `qx${i.toString(36)}z`);
    const page = (ref: string) =>
      doc('prj_a', ref, `Page ${ref}`, Array.from({ length: 2 + Math.floor(rand() * 4) }, () => words[Math.floor(rand() * words.length)]).join(' '));
    const db = await fresh();
    const writers = 6;
    let pages = Array.from({ length: writers * 8 }, (_, i) => page(`s${i}`));
    const idx = { kysely: db, dialect: 'postgres' } as const;
    // Each writer's pages one after another, a transaction each (as the drain's passes are), the writers at once.
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (const d of pages.filter((_, i) => i % writers === w)) await indexDoc(idx, d);
      }),
    );
    // Then half the pages rewritten and a quarter removed, by the same writers at once.
    const next = pages.map((d, i) => (i % 2 === 0 ? page(d.refId) : d));
    const gone = new Set(pages.filter((_, i) => i % 4 === 1).map((d) => d.refId));
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (const [i, d] of next.entries()) {
          if (i % writers !== w) continue;
          if (gone.has(d.refId)) await removeDoc(idx, { projectId: 'prj_a', kind: 'wiki', refId: d.refId });
          else if (i % 2 === 0) await indexDoc(idx, d);
        }
      }),
    );
    pages = next.filter((d) => !gone.has(d.refId));
    const clean = await fresh();
    for (const d of pages) await indexDoc({ kysely: clean, dialect: 'postgres' }, d);
    const postings = async (k: Kysely<DB>) =>
      (
        await sql<{ term: string; doc: string; n: number }>`select b.term, d.ref_id as doc, count(*)::int as n
          from search_all_blocks b cross join lateral unnest(b.p[:][1:1]) as u(o) join search_docs d on d.id = b.first_doc + u.o
          group by 1, 2 order by 1, 2`.execute(k)
      ).rows;
    const got = await postings(db);
    expect(got.filter((r) => r.n !== 1)).toEqual([]);
    expect(got).toEqual(await postings(clean));
    for (const query of [words[0]!, `${words[1]} ${words[2]}`, words.slice(3, 6).join(' ')])
      expect(await ranked(db, query, 50)).toEqual(await ranked(clean, query, 50));
  });

  it('leave the postings of one version when two writers re-index the same page at once', async () => {
    const racing = await fresh();
    await indexDoc({ kysely: racing, dialect: 'postgres' }, FINAL[0]!);
    const versions = ['turbulent flutter of the boundary layer', 'heated bread at speed', 'laminar panels and bread'];
    // Each writer reads the page's stored text (locked) and then writes; neither may remove the other's postings.
    await Promise.all(versions.map((body) => racing.transaction().execute((trx) => indexDoc({ kysely: trx, dialect: 'postgres' }, { ...FINAL[0]!, body }))));
    const { rows } = await sql<{ body: string }>`select b.body from search_bodies b join search_docs d on d.id = b.doc_id`.execute(racing);
    expect(rows).toHaveLength(1);
    const clean = await fresh();
    await indexDoc({ kysely: clean, dialect: 'postgres' }, { ...FINAL[0]!, body: rows[0]!.body });
    const postings = async (db: Kysely<DB>) =>
      (await sql<{ term: string; n: number }>`select term, sum(n)::int as n from search_all_blocks group by term order by term`.execute(db)).rows;
    expect(await postings(racing)).toEqual(await postings(clean));
  });

  it('let writers of one project index the same words at once, neither waiting for the other', async () => {
    // Each page shares the common words of FINAL; a writer holding the last block of those words until its commit
    // must not make the other queue behind it (migration 040 skips a held block).
    const together = await fresh();
    await indexDoc({ kysely: together, dialect: 'postgres' }, FINAL[0]!);
    const held: Array<() => void> = [];
    const writer = (d: SearchDocInput) =>
      together.transaction().execute(async (trx) => {
        await indexDoc({ kysely: trx, dialect: 'postgres' }, d);
        await new Promise<void>((resolve) => held.push(resolve));
      });
    const first = writer(FINAL[1]!);
    await expect.poll(() => held.length).toBe(1);
    const second = writer(FINAL[3]!); // 'the', as in the pages before it
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(2);
    for (const release of held) release();
    await Promise.all([first, second]);
    for (const d of [FINAL[2]!, ...FINAL.slice(4)]) await indexDoc({ kysely: together, dialect: 'postgres' }, d);

    const clean = await fresh();
    for (const d of FINAL) await indexDoc({ kysely: clean, dialect: 'postgres' }, d);
    expect(await scores(together)).toEqual(await scores(clean));
  });
});
