import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createAgent, createLoginCode, createToken, putFile, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(kinds)('favourites and recent items over HTTP (B13, %s)', (kind) => {
  let s: TestApp;
  let n = 0;

  beforeAll(async () => {
    s = await createTestApp(kind);
  });
  afterAll(async () => s?.close());

  const api = (method: string, url: string, token: string, body?: unknown) => s.api(method, url, token, body);
  const person = async (role: 'admin' | 'editor' | 'viewer' = 'editor') => {
    const m = await addMember(await s.t.admin(), { user: `fav-${++n}`, role });
    return (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
  };

  it('each person keeps their own stars and recent files; a missing file is not_found; agents have none', async () => {
    await putFile(await s.t.admin(), { path: 'shared/a.md', source: 'a' });
    const ann = await person('viewer');
    const bob = await person();
    const star = await api('PUT', '/projects/default/favourites', ann, { kind: 'file', path: 'shared/a.md' });
    expect([star.status, star.body]).toMatchObject([200, { kind: 'file', path: 'shared/a.md', name: 'a.md' }]);
    expect((await api('PUT', '/projects/default/favourites', ann, { kind: 'file', path: 'shared/nothing.md' })).body.code).toBe('not_found');
    expect((await api('PUT', '/projects/default/favourites', ann, { kind: 'disk', path: 'x' })).status).toBe(400);
    expect((await api('GET', '/projects/default/favourites', ann)).body.map((i: { path: string }) => i.path)).toEqual(['shared/a.md']);
    expect((await api('GET', '/projects/default/favourites', bob)).body).toEqual([]);
    expect((await api('POST', '/projects/default/recent', bob, { kind: 'file', path: 'shared/a.md' })).status).toBe(200);
    expect((await api('GET', '/projects/default/recent', bob)).body.map((i: { path: string }) => i.path)).toEqual(['shared/a.md']);
    expect((await api('GET', '/projects/default/recent', ann)).body).toEqual([]);
    const del = await api('DELETE', '/projects/default/favourites?kind=file&path=shared%2Fa.md', ann);
    expect(del.status).toBe(200);
    expect((await api('GET', '/projects/default/favourites', ann)).body).toEqual([]);

    const agent = await createAgent(await s.t.admin(), { name: 'Starry' });
    const token = (await createToken(await s.t.admin(), { agent: agent.id })).token;
    expect((await api('GET', '/projects/default/favourites', token)).status).toBe(403);
  });

  it("a person's own volume keeps their favourites too, and nobody else reaches them", async () => {
    const eve = await person();
    const vol = (await api('POST', '/volumes', eve, { catalog: 'users' })).body.volumeId as string;
    await s.api('PUT', `/projects/${vol}/files/content?path=mine.txt`, eve, 'mine', { 'content-type': 'application/octet-stream' });
    expect((await api('PUT', `/projects/${vol}/favourites`, eve, { kind: 'file', path: 'mine.txt' })).status).toBe(200);
    expect((await api('GET', `/projects/${vol}/favourites`, eve)).body.map((i: { path: string }) => i.path)).toEqual(['mine.txt']);
    const other = await person();
    expect((await api('GET', `/projects/${vol}/favourites`, other)).status).toBe(404);
  });
});
