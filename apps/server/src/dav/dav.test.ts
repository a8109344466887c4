import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, putFile, statFile, listVersions } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';

let t: TestPlatform;
let app: FastifyInstance;
let base: string;
let adminAuth: string;
let viewerAuth: string;

const basic = (token: string) => 'Basic ' + Buffer.from(`anyone:${token}`).toString('base64');

beforeAll(async () => {
  t = await createTestPlatform('sqlite');
  app = await buildApp({ platform: t.platform, webRoot: null });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await t.admin();
  await t.userCtx('vera', 'viewer');
  adminAuth = basic((await createToken(admin, { user: 'admin' })).token);
  viewerAuth = basic((await createToken(admin, { user: 'vera' })).token);
});

afterAll(async () => {
  await app.close();
  await t.cleanup();
});

const dav = (method: string, path: string, init: { auth?: string; headers?: Record<string, string>; body?: string } = {}) =>
  fetch(`${base}/dav/${path}`, { method, headers: { authorization: init.auth ?? adminAuth, ...(init.headers ?? {}) }, body: init.body });

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('WebDAV at /dav', { shuffle: false }, () => {
  it('asks for credentials without a token, and takes the token as a Basic password', async () => {
    const r = await fetch(`${base}/dav/`, { method: 'PROPFIND', headers: { depth: '1' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await dav('OPTIONS', '')).headers.get('dav')).toContain('1');
  });

  it('writes, lists and reads files with Cyrillic and CJK names through the same rules as the API', async () => {
    const put = await dav('PUT', `${encodeURIComponent('отчёты')}/${encodeURIComponent('季度 报告.md')}`, { body: '# Итоги\n' });
    expect(put.status).toBe(201);
    const list = await dav('PROPFIND', '', { headers: { depth: '1' } });
    expect(list.status).toBe(207);
    const xml = await list.text();
    expect(xml).toContain(`<d:href>/dav/${encodeURIComponent('отчёты')}/</d:href>`);
    expect(xml).toContain('<d:collection/>');
    const inner = await (await dav('PROPFIND', encodeURIComponent('отчёты'), { headers: { depth: '1' } })).text();
    expect(inner).toContain('<d:getcontentlength>' + Buffer.byteLength('# Итоги\n') + '</d:getcontentlength>');
    expect(inner).toContain('<d:getcontenttype>text/markdown</d:getcontenttype>');
    const got = await dav('GET', `${encodeURIComponent('отчёты')}/${encodeURIComponent('季度 报告.md')}`);
    expect(await got.text()).toBe('# Итоги\n');
    const info = await statFile(await t.admin(), 'отчёты/季度 报告.md');
    expect(info.createdBy).toBe('');
  });

  it("moves a file by metadata, and moving onto an existing file keeps that file's history", async () => {
    const ctx = await t.admin();
    await putFile(ctx, { path: 'notes/a.md', source: 'one' });
    await putFile(ctx, { path: 'notes/b.md', source: 'two' });
    const mv = await dav('MOVE', 'notes/a.md', { headers: { destination: `${base}/dav/notes/c.md` } });
    expect(mv.status).toBe(201);
    expect((await dav('GET', 'notes/c.md')).status).toBe(200);
    expect((await dav('GET', 'notes/a.md')).status).toBe(404);
    const refused = await dav('MOVE', 'notes/c.md', { headers: { destination: `${base}/dav/notes/b.md`, overwrite: 'F' } });
    expect(refused.status).toBe(412);
    const over = await dav('MOVE', 'notes/c.md', { headers: { destination: `${base}/dav/notes/b.md` } });
    expect(over.status).toBe(204);
    expect(await (await dav('GET', 'notes/b.md')).text()).toBe('one');
    expect((await listVersions(ctx, 'notes/b.md')).map((v) => v.version)).toEqual([2, 1]);
  });

  it('copies without copying bytes; folders are real: MKCOL persists, MOVE and DELETE take the whole folder', async () => {
    const ctx = await t.admin();
    await putFile(ctx, { path: 'src/x.txt', source: 'x' });
    expect((await dav('COPY', 'src/x.txt', { headers: { destination: `${base}/dav/dst/x.txt` } })).status).toBe(201);
    expect((await statFile(ctx, 'dst/x.txt')).sha256).toBe((await statFile(ctx, 'src/x.txt')).sha256);
    expect((await dav('MKCOL', 'src/empty')).status).toBe(201);
    expect((await dav('MKCOL', 'src/empty')).status).toBe(405);
    expect((await dav('MOVE', 'src', { headers: { destination: `${base}/dav/moved` } })).status).toBe(201);
    expect((await statFile(ctx, 'moved/x.txt')).size).toBe(1);
    const listing = await (await dav('PROPFIND', 'moved', { headers: { depth: '1' } })).text();
    expect(listing).toContain('<d:href>/dav/moved/empty/</d:href>');
    expect((await dav('DELETE', 'moved')).status).toBe(204);
    expect((await dav('PROPFIND', 'moved', { headers: { depth: '0' } })).status).toBe(404);
    expect((await dav('MOVE', 'dst/x.txt', { headers: { destination: `${base}/dav/dst/%E0%A4%A.txt` } })).status).toBe(400);
  });

  it('conditional requests, client modification times, checksums and dead properties that move with the file', async () => {
    const put = await dav('PUT', 'sync/a.txt', { body: 'aaa', headers: { 'x-oc-mtime': '1700000000' } });
    expect(put.status).toBe(201);
    expect(put.headers.get('x-oc-mtime')).toBe('accepted');
    const etag = put.headers.get('etag')!;
    expect(put.headers.get('oc-checksum')).toMatch(/^SHA256:[0-9a-f]{64}$/);
    expect((await dav('PUT', 'sync/a.txt', { body: 'bbb', headers: { 'if-none-match': '*' } })).status).toBe(412);
    expect((await dav('PUT', 'sync/a.txt', { body: 'bbb', headers: { 'if-match': '"nope"' } })).status).toBe(412);
    expect((await dav('GET', 'sync/a.txt', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await dav('PUT', 'sync/a.txt', { body: 'bbb', headers: { 'if-match': etag } })).status).toBe(204);
    expect((await listVersions(await t.admin(), 'sync/a.txt')).map((v) => v.version)).toEqual([2, 1]);
    const props = await (await dav('PROPFIND', 'sync/a.txt', { headers: { depth: '0' } })).text();
    expect(props).toContain('<checksums xmlns="http://owncloud.org/ns"><checksum>SHA256:');
    // The client's time survives the second PUT only when it sends it again (a new version is a new modification).
    const timed = await dav('PUT', 'sync/a.txt', { body: 'bbb', headers: { 'x-oc-mtime': '1700000000' } });
    expect(timed.status).toBe(204);
    const again = await (await dav('PROPFIND', 'sync/a.txt', { headers: { depth: '0' } })).text();
    expect(again).toContain(`<d:getlastmodified>${new Date(1700000000 * 1000).toUTCString()}</d:getlastmodified>`);
    const patch = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>blue &amp; green</Z:colour></D:prop></D:set></D:propertyupdate>`;
    expect((await dav('PROPPATCH', 'sync/a.txt', { body: patch })).status).toBe(207);
    expect((await dav('MOVE', 'sync/a.txt', { headers: { destination: `${base}/dav/sync/b.txt` } })).status).toBe(201);
    const moved = await (await dav('PROPFIND', 'sync/b.txt', { headers: { depth: '0' } })).text();
    expect(moved).toContain('<colour xmlns="urn:z">blue &amp; green</colour>');
  });

  it('locks: a non-holder gets 423, the holder writes with the token, UNLOCK releases', async () => {
    await dav('PUT', 'locked.txt', { body: 'v1' });
    const body = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const l = await dav('LOCK', 'locked.txt', { body, headers: { timeout: 'Second-60' } });
    expect(l.status).toBe(200);
    const token = l.headers.get('lock-token')!;
    expect((await dav('PUT', 'locked.txt', { body: 'v2' })).status).toBe(423);
    expect((await dav('DELETE', 'locked.txt')).status).toBe(423);
    expect((await dav('LOCK', 'locked.txt', { body })).status).toBe(423);
    expect((await dav('PUT', 'locked.txt', { body: 'v2', headers: { if: `(${token})` } })).status).toBe(204);
    expect((await dav('UNLOCK', 'locked.txt', { headers: { 'lock-token': token } })).status).toBe(204);
    expect((await dav('DELETE', 'locked.txt')).status).toBe(204);
  });

  it('a WebDAV lock holds at every door: the API refuses others with 423 "locked", the holder\'s own API writes pass', async () => {
    const admin = await t.admin();
    const editor = await t.userCtx('eddie', 'editor');
    const editorToken = (await createToken(admin, { user: 'eddie' })).token;
    const api = (method: string, path: string, body?: string, token = editorToken) =>
      fetch(`${base}/api/v1/projects/default/${path}`, {
        method,
        body,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/octet-stream' } : {}) },
      });
    await putFile(admin, { path: 'shared/plan.md', source: 'v1' });
    const body = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const l = await dav('LOCK', 'shared', { body, headers: { timeout: 'Second-60', depth: 'infinity' } });
    expect(l.status).toBe(200);
    const token = l.headers.get('lock-token')!;
    // Someone else, through the HTTP API and the core: every change under the locked folder is refused.
    const put = await api('PUT', 'files/content?path=shared%2Fplan.md', 'v2');
    expect(put.status).toBe(423);
    expect((await put.json()).code).toBe('locked');
    expect((await api('PUT', 'files/content?path=shared%2Fnew.md', 'n')).status).toBe(423);
    expect((await api('DELETE', 'files?path=shared%2Fplan.md')).status).toBe(423);
    await expect(putFile(editor, { path: 'shared/plan.md', source: 'v2' })).rejects.toMatchObject({ code: 'locked' });
    expect((await statFile(admin, 'shared/plan.md')).version).toBe(1);
    // Outside the locked folder nothing changes for anyone.
    expect((await api('PUT', 'files/content?path=free.md', 'f')).status).toBe(201);
    // The holder's own writes through a door that cannot send tokens pass.
    expect((await putFile(admin, { path: 'shared/plan.md', source: 'v2' })).file.version).toBe(2);
    expect((await dav('UNLOCK', 'shared', { headers: { 'lock-token': token } })).status).toBe(204);
    expect((await api('PUT', 'files/content?path=shared%2Fplan.md', 'v3')).status).toBe(200);
  });

  it('lets a viewer read but not write, and refuses path tricks', async () => {
    expect((await dav('GET', 'dst/x.txt', { auth: viewerAuth })).status).toBe(200);
    const w = await dav('PUT', 'dst/y.txt', { auth: viewerAuth, body: 'no' });
    expect(w.status).toBe(403);
    expect(await w.text()).toMatch(/^forbidden: /);
    const trick = await fetch(`${base}/dav/a/%2e%2e/%2e%2e/etc/passwd`, { headers: { authorization: adminAuth } });
    expect([400, 404]).toContain(trick.status);
    const body = await trick.text();
    expect(body).not.toMatch(/\/tmp|\/work|stoa-test/);
  });
});
