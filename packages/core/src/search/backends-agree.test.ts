import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { type DB } from '@stoa/db';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { indexDoc, indexDocs, searchDocs, setDocVisibility, type SearchDocInput, type SearchHit } from './index.js';
import { seedProject } from './test-helpers.js';
import { searchLanes } from './blend.js';

// A small mixed-language corpus with shared words of different frequencies, so idf, length normalisation
// and the title weight all influence the order.
const CORPUS: Array<[string, string]> = [
  ['Boundary layers', 'The boundary layer on a flat plate grows with distance; turbulent boundary layers grow faster.'],
  ['Heat transfer', 'Heat transfer in the laminar boundary layer of a heated plate at high speed.'],
  ['Wings', 'Lift and drag of swept wings at supersonic speed, with a note on the boundary layer.'],
  ['Shock waves', 'Interaction of shock waves with a turbulent boundary layer near a wedge.'],
  ['Flutter', 'Flutter of panels at high speed; heated panels flutter earlier.'],
  ['Notes', 'speed speed speed speed speed speed speed speed of sound'],
  ['Пограничный слой', 'Пограничный слой на пластине растёт; турбулентный слой растёт быстрее.'],
  ['Теплообмен', 'Теплообмен в ламинарном пограничном слое нагретой пластины.'],
  ['Крылья', 'Подъёмная сила стреловидных крыльев на сверхзвуковой скорости.'],
  ['边界层', '平板上的边界层随距离增长，湍流边界层增长更快。'],
  ['传热', '高速加热平板层流边界层中的传热。'],
  ['机翼', '超音速下后掠机翼的升力和阻力，以及边界层的说明。'],
  ['境界層', '平板上の境界層は距離とともに成長する。'],
  ['Mixed', 'boundary 边界层 слой layer'],
  ['Empty body', ''],
  ['Long', `${'filler words about nothing in particular. '.repeat(40)} boundary layer at the end.`],
  // Unrelated pages keep every idf above FTS5's floor, so the scores really are compared.
  ...Array.from({ length: 24 }, (_, i): [string, string] => [`Recipe ${i}`, `Bake the bread for ${i + 20} minutes, then rest it.`]),
];
const QUERIES = [
  'boundary layer',
  'heated plate speed',
  'turbulent',
  'speed',
  'flutter of heated panels',
  'слой',
  'пограничного слоя',
  '边界层',
  '传热平板',
  '境界層',
  'wings lift',
  'sound',
  'layer слой 边界',
  'nothing particular boundary',
];

const kinds = testDbKinds();
/** The first corpus is spread over three kinds, so the one search's lanes each hold some of it. */
const KINDS = ['wiki', 'memory', 'file'] as const;

describe.skipIf(!kinds.includes('postgres'))('SQLite and PostgreSQL rank alike', () => {
  const dbs: Record<string, { db: Kysely<DB>; cleanup: () => Promise<void> }> = {};
  beforeAll(async () => {
    for (const kind of ['sqlite', 'postgres'] as const) {
      const t = await createTestDb(kind);
      const db = t.db.kysely;
      await seedProject(db, 'prj_a');
      for (const [i, [title, body]] of CORPUS.entries()) {
        await indexDoc(
          { kysely: db, dialect: kind },
          {
            projectId: 'prj_a',
            kind: KINDS[i % 3]!,
            refId: `d${i}`,
            path: `p/${i}`,
            title,
            body,
            visibility: 'project',
            updatedAt: '2024-01-01T00:00:00.000Z',
          },
        );
      }
      // Another project's pages count in the whole-table statistics; a hidden page counts but is not shown.
      // (Replacements and removals are not compared: FTS5's contentless_delete keeps a removed row in its
      // document and token totals, where PostgreSQL's statistics follow the rows — see pg-stats.test.ts.)
      await seedProject(db, 'prj_b');
      await indexDoc(
        { kysely: db, dialect: kind },
        {
          projectId: 'prj_b',
          kind: 'wiki',
          refId: 'x',
          path: 'x',
          title: 'Speed',
          body: 'speed of the boundary layer 边界层 слой',
          visibility: 'project',
          updatedAt: '2024-01-01T00:00:00.000Z',
        },
      );
      await setDocVisibility({ kysely: db, dialect: kind }, { projectId: 'prj_a', kind: 'wiki', refId: 'd3', visibility: 'channel:hidden' });
      dbs[kind] = { db, cleanup: t.cleanup };
    }
  });
  afterAll(async () => {
    for (const d of Object.values(dbs)) await d.cleanup();
  });

  const run = (kind: 'sqlite' | 'postgres', query: string): Promise<SearchHit[]> =>
    searchDocs({ kysely: dbs[kind]!.db, dialect: kind }, { projectId: 'prj_a', query, visibility: ['project'], limit: 10 });

  it.each(QUERIES)('same hits, order and scores for %s', async (query) => {
    const [a, b] = [await run('sqlite', query), await run('postgres', query)];
    expect(a.length).toBeGreaterThan(0);
    expect(b.map((h) => h.refId)).toEqual(a.map((h) => h.refId));
    expect(a[0]!.score).toBeGreaterThan(0.01);
    for (const [i, h] of a.entries()) expect(b[i]!.score).toBeCloseTo(h.score, 9);
    expect(b.map((h) => h.snippet)).toEqual(a.map((h) => h.snippet));
  });

  const lanes = (kind: 'sqlite' | 'postgres', query: string): Promise<SearchHit[]> =>
    searchLanes(
      { kysely: dbs[kind]!.db, dialect: kind },
      { projectId: 'prj_a', query, lanes: KINDS.map((k) => ({ kind: k, visibility: ['project'] })), limit: 10 },
    );

  it.each(QUERIES)('the one search across kinds: same hits, order and scores for %s', async (query) => {
    const [a, b] = [await lanes('sqlite', query), await lanes('postgres', query)];
    expect(a.length).toBeGreaterThan(0);
    expect(b.map((h) => h.refId)).toEqual(a.map((h) => h.refId));
    for (const [i, h] of a.entries()) expect(b[i]!.score).toBeCloseTo(h.score, 9);
  });
});

describe.skipIf(!kinds.includes('postgres'))('PostgreSQL: a batch indexes as one document at a time does', () => {
  const dbs: Array<{ db: Kysely<DB>; cleanup: () => Promise<void> }> = [];
  const page = (i: number, title: string, body: string): SearchDocInput => ({
    projectId: 'prj_a',
    kind: 'wiki',
    refId: `d${i}`,
    path: `p/${i}`,
    title,
    body,
    visibility: 'project',
    updatedAt: '2024-01-01T00:00:00.000Z',
  });
  beforeAll(async () => {
    for (const batched of [false, true]) {
      const t = await createTestDb('postgres');
      dbs.push({ db: t.db.kysely, cleanup: t.cleanup });
      await seedProject(t.db.kysely, 'prj_a');
      const index = { kysely: t.db.kysely, dialect: 'postgres' as const };
      const pages = CORPUS.map(([title, body], i) => page(i, title, body));
      if (!batched) {
        for (const p of pages) await indexDoc(index, p);
        continue;
      }
      // Earlier versions with other words (their postings must go), then the corpus in two batches, one of
      // which names a page twice: the last one counts.
      await indexDocs(
        index,
        pages.slice(0, 10).map((p) => ({ ...p, body: `stale only ${p.refId}`, title: 'old' })),
      );
      await indexDocs(index, [page(3, 'wrong', 'wrong words'), ...pages.slice(0, 20)]);
      await indexDocs(index, pages.slice(20));
    }
  });
  afterAll(async () => {
    for (const d of dbs) await d.cleanup();
  });

  it.each([...QUERIES, 'stale', 'wrong'])('same hits and scores for %s', async (query) => {
    const [a, b] = await Promise.all(
      dbs.map((d) => searchDocs({ kysely: d.db, dialect: 'postgres' }, { projectId: 'prj_a', query, visibility: ['project'], limit: 10 })),
    );
    expect(b!.map((h) => h.refId)).toEqual(a!.map((h) => h.refId));
    for (const [i, h] of a!.entries()) expect(b![i]!.score).toBeCloseTo(h.score, 9);
    if (query === 'stale' || query === 'wrong') expect(b).toEqual([]);
  });
});
