import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, contextFor, createAgent, createProject, createToken, localAdminPrincipal, putFile } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(kinds)('search results: kinds, counts per kind and cursors over HTTP (issue 31, %s)', (kind) => {
  let s: TestApp;
  let viewer: string;
  let confined: string;
  let confinedId: string;
  let outsider: string;

  beforeAll(async () => {
    s = await createTestApp(kind);
    const admin = await s.t.admin();
    viewer = await s.tokenFor('vera', 'viewer');
    const a = await createAgent(admin, { name: 'Confined', files: 'on', write: 'own', read: 'own' });
    confinedId = a.id;
    confined = (await createToken(admin, { agent: a.id })).token;
    // A person of another project, who has files of their own with the same word.
    const root = await localAdminPrincipal(s.t.platform);
    if (root.kind !== 'user') throw new Error('the local administrator is a user');
    await createProject(s.t.platform, { kind: 'user', userId: root.userId, name: root.name, role: null, superuser: true }, { name: 'other' });
    const other = await contextFor(s.t.platform, root, { project: 'other' });
    await addMember(other, { user: 'olga', role: 'editor' });
    outsider = (await createToken(other, { user: 'olga' })).token;
    await putFile(other, { path: 'olga/capybara.md', source: 'capybara notes of the other project' });

    for (let i = 0; i < 7; i++) await putFile(admin, { path: `zoo/capybara-${i}.md`, source: `capybara number ${i} grazes by the river` });
    await putFile(admin, { path: `agents/${confinedId}/capybara.md`, source: 'capybara seen by the confined agent' });
    const page = await s.api('PUT', '/projects/default/wiki/page', s.adminToken, {
      path: 'animals/capybara',
      title: 'Capybara',
      text: '# Capybara\n\nThe capybara.',
    });
    expect(page.status).toBe(200);
    const memory = await s.api('PUT', '/projects/default/memory/file', s.adminToken, { file: 'AGENTS.md', content: 'Report every capybara.' });
    expect(memory.status).toBeLessThan(300);
  });
  afterAll(() => s?.close());

  const results = (token: string, query: string, project = 'default') => s.api('GET', `/projects/${project}/search/results?${query}`, token);

  it('pages through every hit with opaque cursors, and counts each kind whatever the filter', async () => {
    const first = await results(viewer, 'q=capybara&limit=4');
    expect(first.status).toBe(200);
    expect(first.body.counts).toEqual({ wiki: 1, memory: 1, file: 8, document: 0 });
    expect(first.body.hits).toHaveLength(4);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.body.nextCursor).not.toMatch(/^\d+$/);
    const seen = first.body.hits.map((h: any) => `${h.kind}:${h.path}`);
    let cursor = first.body.nextCursor as string | null;
    while (cursor) {
      const next = await results(viewer, `q=capybara&limit=4&cursor=${encodeURIComponent(cursor)}`);
      expect(next.status).toBe(200);
      seen.push(...next.body.hits.map((h: any) => `${h.kind}:${h.path}`));
      cursor = next.body.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(10);
    // The same hits, in the same order, as the plain search.
    const plain = await s.api('GET', '/projects/default/search?q=capybara&limit=50', viewer);
    expect(seen).toEqual(plain.body.map((h: any) => `${h.kind}:${h.path}`));

    const files = await results(viewer, 'q=capybara&kinds=file&limit=50');
    expect(files.body.hits.every((h: any) => h.kind === 'file')).toBe(true);
    expect(files.body.hits).toHaveLength(8);
    expect(files.body.counts).toEqual(first.body.counts);
    expect(files.body.nextCursor).toBeNull();
    const wikiAndMemory = await results(viewer, 'q=capybara&kinds=wiki,memory');
    expect(wikiAndMemory.body.hits.map((h: any) => h.kind).sort()).toEqual(['memory', 'wiki']);
  });

  it('counts only what the caller may read: a confined agent its own folder, a person of another project their own', async () => {
    const agent = await results(confined, 'q=capybara');
    expect(agent.status).toBe(200);
    // Of the eight files it reads one (its folder); the project's pages and workspace memory are an agent's to read.
    expect(agent.body.hits.filter((h: any) => h.kind === 'file').map((h: any) => h.path)).toEqual([`agents/${confinedId}/capybara.md`]);
    expect(agent.body.counts).toEqual({ wiki: 1, memory: 1, file: 1, document: 0 });
    // The other project's member finds their own file; this project's is out of their reach altogether.
    const own = await results(outsider, 'q=capybara', 'other');
    expect(own.body.counts).toEqual({ wiki: 0, memory: 0, file: 1, document: 0 });
    expect(own.body.hits.map((h: any) => h.path)).toEqual(['olga/capybara.md']);
    expect((await results(outsider, 'q=capybara')).status).toBe(404);
  });

  it('refuses a cursor it did not give, and one of another project or of the change feed', async () => {
    for (const bad of ['12', 'x'.repeat(22), 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const r = await results(viewer, `q=capybara&cursor=${bad}`);
      expect([r.status, r.body.code]).toEqual([400, 'bad_request']);
    }
    const feed = await s.api('GET', '/projects/default/files/changes', viewer);
    const r = await results(viewer, `q=capybara&cursor=${encodeURIComponent(feed.body.cursor)}`);
    expect([r.status, r.body.code]).toEqual([400, 'bad_request']);
    const mine = (await results(viewer, 'q=capybara&limit=2')).body.nextCursor as string;
    const elsewhere = await results(outsider, `q=capybara&cursor=${encodeURIComponent(mine)}`, 'other');
    expect([elsewhere.status, elsewhere.body.code]).toEqual([400, 'bad_request']);
  });
});
