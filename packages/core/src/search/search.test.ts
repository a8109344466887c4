import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { type DB } from '@stoa/db';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { seedProject } from './test-helpers.js';
import { indexDoc, removeDoc, removeDocsByPath, renameDocPath, searchDocs, setDocVisibility, type SearchDocInput } from './index.js';

const base = { kind: 'wiki', visibility: 'project', updatedAt: '2024-01-01T00:00:00.000Z', title: '' };

describe.each(testDbKinds())('search on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let db: Kysely<DB>;
  const P = 'prj_search';
  const add = (d: Partial<SearchDocInput> & { refId: string; body: string }) =>
    indexDoc({ kysely: db, dialect: kind }, { ...base, projectId: P, path: d.refId, ...d });
  const find = (query: string, extra: Partial<Parameters<typeof searchDocs>[1]> = {}) =>
    searchDocs({ kysely: db, dialect: kind }, { projectId: P, query, visibility: ['project'], ...extra });
  const refs = async (query: string, extra: Partial<Parameters<typeof searchDocs>[1]> = {}) => (await find(query, extra)).map((h) => h.refId);

  beforeAll(async () => {
    t = await createTestDb(kind);
    db = t.db.kysely;
    await seedProject(db, P);
    await seedProject(db, 'prj_other');
    await add({ refId: 'en1', title: 'Network', body: 'The connection to the server was lost.' });
    await add({ refId: 'ru1', body: 'Привет, мир! Это первая страница.' });
    await add({ refId: 'ru2', body: 'Эта книга лежит на столе.' });
    await add({ refId: 'zh1', body: '我们的数据库很快' });
    await add({ refId: 'ja1', body: '東京は日本の首都です。' });
    await add({ refId: 'ja2', body: 'カタカナのテストページ' });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('stems English: "connected" finds "connection"', async () => {
    expect(await refs('connected')).toEqual(['en1']);
    expect(await refs('CONNECTIONS')).toEqual(['en1']);
  });

  it('finds Russian words in other forms', async () => {
    expect(await refs('привет')).toEqual(['ru1']);
    expect(await refs('книги')).toEqual(['ru2']);
    expect(await refs('страницы')).toEqual(['ru1']);
  });

  it('finds Chinese and Japanese words however the query segments', async () => {
    expect(await refs('数据库')).toEqual(['zh1']);
    expect(await refs('数据')).toEqual(['zh1']);
    expect(await refs('首都')).toEqual(['ja1']);
    expect(await refs('東京')).toEqual(['ja1']);
    expect(await refs('カタカナ')).toEqual(['ja2']);
  });

  it('ranks a title match above a body match', async () => {
    await add({ refId: 'w-body', title: 'Misc', body: 'Notes about zebras and other animals of the savanna.' });
    await add({ refId: 'w-title', title: 'Zebras', body: 'Notes about animals of the savanna and more.' });
    const hits = await find('zebra');
    expect(hits.map((h) => h.refId)).toEqual(['w-title', 'w-body']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('puts documents with every term before those with some', async () => {
    await add({ refId: 'and-1', body: 'quokka quokka quokka quokka island' });
    await add({ refId: 'and-2', body: 'a quokka met a wallaby' });
    expect((await refs('quokka wallaby'))[0]).toBe('and-2');
    expect(await refs('quokka wallaby')).toContain('and-1');
  });

  it('cuts snippets around the matched words and reports where they are', async () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(30)}The refund policy says refunds take five days. ${'Filler text here. '.repeat(30)}`;
    await add({ refId: 'snip', title: 'Policy', body: long });
    const [hit] = await find('refunds');
    expect(hit!.refId).toBe('snip');
    expect(hit!.snippet).toContain('refund policy');
    expect(hit!.snippet.length).toBeLessThanOrEqual(202);
    expect(hit!.snippet.startsWith('…')).toBe(true);
    const marked = hit!.highlights.map(([a, b]) => hit!.snippet.slice(a, b));
    expect(marked).toEqual(['refund', 'refunds']);
    const [zh] = await find('数据库');
    expect(zh!.highlights.map(([a, b]) => zh!.snippet.slice(a, b))).toEqual(['数据库']);
  });

  it('filters by visibility in SQL, before the limit', async () => {
    for (let i = 0; i < 5; i++) {
      await add({ refId: `secret-${i}`, title: 'Gryphon gryphon', body: 'gryphon '.repeat(10), visibility: 'channel:conv_hidden' });
    }
    for (let i = 0; i < 3; i++) await add({ refId: `open-${i}`, body: `a gryphon appears ${i}` });
    const visible = await refs('gryphon', { limit: 3 });
    expect(visible.sort()).toEqual(['open-0', 'open-1', 'open-2']);
    const insiders = await refs('gryphon', { limit: 3, visibility: ['project', 'channel:conv_hidden'] });
    expect(insiders.every((r) => r.startsWith('secret-'))).toBe(true);
    expect(await refs('gryphon', { visibility: [] })).toEqual([]);
    await setDocVisibility({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', refId: 'secret-0', visibility: 'project' });
    expect(await refs('gryphon', { limit: 1 })).toEqual(['secret-0']);
  });

  it('keeps projects apart and filters by kind and path prefix', async () => {
    await indexDoc({ kysely: db, dialect: kind }, { ...base, projectId: 'prj_other', refId: 'o1', path: 'x', body: 'platypus' });
    await add({ refId: 'm1', kind: 'memory', path: 'MEMORY.md', body: 'platypus facts' });
    await add({ refId: 'h1', path: 'handbook', body: 'platypus handbook' });
    await add({ refId: 'h2', path: 'handbook/pets', body: 'platypus pets' });
    await add({ refId: 'h3', path: 'handbook2/pets', body: 'platypus other' });
    expect((await refs('platypus')).sort()).toEqual(['h1', 'h2', 'h3', 'm1']);
    expect(await refs('platypus', { kinds: ['memory'] })).toEqual(['m1']);
    expect(await refs('platypus', { kinds: [] })).toEqual([]);
    expect((await refs('platypus', { pathPrefix: 'handbook' })).sort()).toEqual(['h1', 'h2']);
    expect(await refs('platypus', { pathPrefix: 'handbook/' })).toEqual(['h2']);
    expect(await renameDocPath({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', from: 'handbook', to: 'guide', nested: true })).toBe(2);
    expect((await find('platypus', { pathPrefix: 'guide' })).map((h) => h.path).sort()).toEqual(['guide', 'guide/pets']);
    expect(await removeDocsByPath({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', path: 'guide' })).toBe(1);
    expect(await removeDocsByPath({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', path: 'handbook2', nested: true })).toBe(1);
    expect((await refs('platypus')).sort()).toEqual(['h2', 'm1']);
  });

  it('replaces a document on upsert and removes it', async () => {
    await add({ refId: 'up', title: 'Old', body: 'aardvark' });
    expect(await refs('aardvark')).toEqual(['up']);
    await add({ refId: 'up', title: 'New', body: 'armadillo' });
    expect(await refs('aardvark')).toEqual([]);
    const [hit] = await find('armadillo');
    expect([hit!.refId, hit!.title]).toEqual(['up', 'New']);
    await removeDoc({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', refId: 'up' });
    expect(await refs('armadillo')).toEqual([]);
    await removeDoc({ kysely: db, dialect: kind }, { projectId: P, kind: 'wiki', refId: 'never-indexed' });
  });

  it('indexes inside the caller transaction (rolled back with it)', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await indexDoc({ kysely: trx, dialect: kind }, { ...base, projectId: P, refId: 'tx', path: 'tx', body: 'ocelot' });
        expect((await searchDocs({ kysely: trx, dialect: kind }, { projectId: P, query: 'ocelot', visibility: ['project'] })).length).toBe(1);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await refs('ocelot')).toEqual([]);
  });

  it('never lets query syntax through', async () => {
    await add({ refId: 'syntax', body: 'near and or not the quoted "word" * (paren) - minus' });
    const hostile = [
      '"',
      '*',
      'AND',
      'OR',
      'NOT',
      '(',
      ')',
      '-',
      'NEAR',
      'NEAR(a b)',
      "'; drop table search_docs; --",
      'title:x',
      '^start',
      'a"b',
      "it's",
      '\\',
      "\\'",
      '&|!',
      ':*',
      '""""',
      'word*',
      '{a b}',
      '+',
      'body : near',
    ];
    for (const q of hostile) await expect(find(q), q).resolves.toBeInstanceOf(Array);
    await add({ refId: 'odd', body: "see foo:bar, 3.14 and x.y_z in l'amour" });
    expect(await refs('foo:bar')).toEqual(['odd']);
    expect(await refs('3.14')).toEqual(['odd']);
    expect(await refs("l'amour")).toEqual(['odd']);
    expect(await refs('y')).toEqual(['odd']);
    expect(await refs('NEAR')).toContain('syntax');
    expect(await refs('"word"')).toContain('syntax');
    expect(await refs('')).toEqual([]);
    expect(await refs('connected')).toEqual(['en1']);
  });

  it('pages through results without repeats', async () => {
    for (let i = 0; i < 25; i++) await add({ refId: `page-${String(i).padStart(2, '0')}`, body: `wombat ${'filler '.repeat(i)}` });
    const all = await refs('wombat', { limit: 100 });
    expect(all.length).toBe(25);
    const pages = [
      ...(await refs('wombat', { limit: 10 })),
      ...(await refs('wombat', { limit: 10, offset: 10 })),
      ...(await refs('wombat', { limit: 10, offset: 20 })),
    ];
    expect(pages).toEqual(all);
    expect(all[0]).toBe('page-00');
  });

  it('pages across the boundary between AND and OR hits', async () => {
    for (let i = 0; i < 5; i++) await add({ refId: `both-${i}`, body: `koala and emu number ${i}` });
    for (let i = 0; i < 12; i++) await add({ refId: `one-${i}`, body: `koala koala koala ${'x '.repeat(i)}` });
    const all = await refs('koala emu', { limit: 100 });
    expect(all.length).toBe(17);
    expect(all.slice(0, 5).every((r) => r.startsWith('both-'))).toBe(true);
    const paged: string[] = [];
    for (let offset = 0; offset < 20; offset += 4) paged.push(...(await refs('koala emu', { limit: 4, offset })));
    expect(paged).toEqual(all);
  });

  it('drops the index rows of a deleted project', async () => {
    await seedProject(db, 'prj_gone');
    await indexDoc({ kysely: db, dialect: kind }, { ...base, projectId: 'prj_gone', refId: 'g', path: 'g', body: 'capybara' });
    await sql`delete from projects where id = 'prj_gone'`.execute(db);
    const left = await sql<{ n: number }>`select count(*) as n from search_docs where project_id = 'prj_gone'`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);
    if (kind === 'sqlite') {
      const fts = await sql<{ n: number }>`select count(*) as n from search_fts where search_fts match '"capybara"'`.execute(db);
      expect(fts.rows[0]!.n).toBe(0);
    }
  });
});
