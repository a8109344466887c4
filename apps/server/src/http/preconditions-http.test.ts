import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, listVersions } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { testDbKinds } from '@stoa/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';

// RFC 9110 conditional requests at both doors (issue 28): the same answers, the same ETag, one implementation.
describe.each(testDbKinds())('preconditions over HTTP and WebDAV on %s', (kind) => {
  let t: TestPlatform;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    app = await buildApp({ platform: t.platform, webRoot: null });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    token = (await createToken(await t.admin(), { user: 'admin' })).token;
  });
  afterAll(async () => {
    await app.close();
    await t.cleanup();
  });

  const content = (path: string) => `${base}/api/v1/projects/default/files/content?path=${encodeURIComponent(path)}`;
  const api = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(content(path), { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...headers }, body });
  const del = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/projects/default/files?path=${encodeURIComponent(path)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
  const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${base}/dav/${path}`, { method, headers: { authorization: 'Basic ' + Buffer.from(`x:${token}`).toString('base64'), ...headers }, body });
  const versions = async (path: string) => (await listVersions(await t.admin(), path)).length;

  it('one ETag per content at both doors, and Last-Modified on every download', async () => {
    const put = await api('PUT', 'p/same.txt', {}, 'same bytes');
    const viaDav = await dav('PUT', 'p/other.txt', {}, 'same bytes');
    expect(viaDav.headers.get('etag')).toBe(put.headers.get('etag'));
    const httpGet = await api('GET', 'p/other.txt');
    const davGet = await dav('GET', 'p/same.txt');
    expect(httpGet.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(httpGet.headers.get('etag')).toBe(davGet.headers.get('etag'));
    expect(new Date(httpGet.headers.get('last-modified')!).getTime()).not.toBeNaN();
    expect(davGet.headers.get('last-modified')).toBe((await dav('GET', 'p/same.txt')).headers.get('last-modified'));
    const propfind = await (await dav('PROPFIND', 'p/same.txt', { depth: '0' })).text();
    expect(propfind).toContain(put.headers.get('etag')!.replace(/"/g, '&quot;'));
  });

  it('GET: If-None-Match compares weakly, If-Match strongly, dates by the second', async () => {
    await api('PUT', 'p/read.txt', {}, 'version one');
    for (const get of [(h: Record<string, string>) => api('GET', 'p/read.txt', h), (h: Record<string, string>) => dav('GET', 'p/read.txt', h)]) {
      const first = await get({});
      const etag = first.headers.get('etag')!;
      const modified = first.headers.get('last-modified')!;
      expect((await get({ 'if-none-match': etag })).status).toBe(304);
      expect((await get({ 'if-none-match': `W/${etag}` })).status).toBe(304);
      expect((await get({ 'if-none-match': `"other", ${etag}` })).status).toBe(304);
      expect((await get({ 'if-none-match': '*' })).status).toBe(304);
      expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
      expect((await get({ 'if-match': etag })).status).toBe(200);
      expect((await get({ 'if-match': `W/${etag}` })).status).toBe(412);
      expect((await get({ 'if-match': '"other"' })).status).toBe(412);
      expect((await get({ 'if-modified-since': modified })).status).toBe(304);
      expect((await get({ 'if-modified-since': new Date(Date.parse(modified) - 3600_000).toUTCString() })).status).toBe(200);
      // If-None-Match wins over If-Modified-Since.
      expect((await get({ 'if-none-match': '"other"', 'if-modified-since': modified })).status).toBe(200);
      expect((await get({ 'if-unmodified-since': new Date(Date.parse(modified) - 3600_000).toUTCString() })).status).toBe(412);
      expect((await get({ 'if-unmodified-since': modified })).status).toBe(200);
    }
    const failed = await api('GET', 'p/read.txt', { 'if-match': '"other"' });
    expect(await failed.json()).toMatchObject({ code: 'precondition_failed', status: 412 });
  });

  it('If-Range: the range of the content the client holds, else the whole current file (200), never a splice or 412', async () => {
    await api('PUT', 'p/resume.bin', {}, '0123456789');
    for (const get of [(h: Record<string, string>) => api('GET', 'p/resume.bin', h), (h: Record<string, string>) => dav('GET', 'p/resume.bin', h)]) {
      await api('PUT', 'p/resume.bin', {}, '0123456789');
      const first = await get({});
      const etag = first.headers.get('etag')!;
      const modified = first.headers.get('last-modified')!;
      let r = await get({ range: 'bytes=4-', 'if-range': etag });
      expect(r.status).toBe(206);
      expect(await r.text()).toBe('456789');
      r = await get({ range: 'bytes=4-', 'if-range': modified });
      expect(r.status).toBe(206);
      // A weak tag never allows a range.
      r = await get({ range: 'bytes=4-', 'if-range': `W/${etag}` });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('0123456789');
      await api('PUT', 'p/resume.bin', {}, 'ABCDEFGHIJKL');
      for (const ifRange of [etag, new Date(Date.parse(modified) - 3600_000).toUTCString()]) {
        r = await get({ range: 'bytes=4-', 'if-range': ifRange });
        expect(r.status).toBe(200);
        expect(await r.text()).toBe('ABCDEFGHIJKL');
      }
      // Past the end of the old content: still the whole new file, not 416.
      await api('PUT', 'p/resume.bin', {}, 'short');
      r = await get({ range: 'bytes=8-', 'if-range': etag });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('short');
    }
  });

  it('HTTP PUT and DELETE honour If-Match and If-None-Match: * (412 precondition_failed), and write nothing when refused', async () => {
    let r = await api('PUT', 'w/a.txt', { 'if-none-match': '*' }, 'first');
    expect(r.status).toBe(201);
    const etag = r.headers.get('etag')!;
    r = await api('PUT', 'w/a.txt', { 'if-none-match': '*' }, 'second');
    expect(r.status).toBe(412);
    expect(await r.json()).toMatchObject({ code: 'precondition_failed' });
    r = await api('PUT', 'w/a.txt', { 'if-match': '"not-this"' }, 'second');
    expect(r.status).toBe(412);
    r = await api('PUT', 'w/a.txt', { 'if-match': `W/${etag}` }, 'second');
    expect(r.status).toBe(412);
    r = await api('PUT', 'w/missing.txt', { 'if-match': '*' }, 'x');
    expect(r.status).toBe(412);
    r = await api('PUT', 'w/a.txt', { 'if-unmodified-since': new Date(Date.now() - 3600_000).toUTCString() }, 'second');
    expect(r.status).toBe(412);
    expect(await versions('w/a.txt')).toBe(1);
    r = await api('PUT', 'w/a.txt', { 'if-match': etag }, 'second');
    expect(r.status).toBe(200);
    const second = r.headers.get('etag')!;
    expect(second).not.toBe(etag);
    expect(r.headers.get('last-modified')).toBeTruthy();
    // The client that read the first content loses no update of the second.
    expect((await api('PUT', 'w/a.txt', { 'if-match': etag }, 'lost')).status).toBe(412);
    expect(await (await api('GET', 'w/a.txt')).text()).toBe('second');
    // The version number as If-Match, as earlier clients sent it, still works.
    expect((await api('PUT', 'w/a.txt', { 'if-match': '"1"' }, 'x')).status).toBe(409);

    r = await del('w/a.txt', { 'if-match': etag });
    expect(r.status).toBe(412);
    expect(await r.json()).toMatchObject({ code: 'precondition_failed' });
    expect((await del('w/a.txt', { 'if-none-match': '*' })).status).toBe(412);
    expect((await api('GET', 'w/a.txt')).status).toBe(200);
    expect((await del('w/a.txt', { 'if-match': second })).status).toBe(200);
    expect((await api('GET', 'w/a.txt')).status).toBe(404);
    expect((await del('w/a.txt', { 'if-match': '*' })).status).toBe(412);
  });

  it('WebDAV: LOCK on a new path then PUT makes exactly one version', async () => {
    const lockinfo =
      '<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>';
    const lock = await dav('LOCK', 'locked/new.odt', { 'content-type': 'application/xml', depth: '0' }, lockinfo);
    expect(lock.status).toBe(201);
    const lockToken = lock.headers.get('lock-token')!;
    // The locked path exists, empty, as RFC 4918 §7.3 asks.
    expect((await dav('GET', 'locked/new.odt')).status).toBe(200);
    const put = await dav('PUT', 'locked/new.odt', { if: `(${lockToken})` }, 'the real content');
    expect([201, 204]).toContain(put.status);
    expect(await versions('locked/new.odt')).toBe(1);
    const [v] = await listVersions(await t.admin(), 'locked/new.odt');
    expect(v).toMatchObject({ version: 1, size: 'the real content'.length });
    const got = await api('GET', 'locked/new.odt');
    expect(await got.text()).toBe('the real content');
    expect(got.headers.get('x-stoa-version')).toBe('1');
    // The next write is a second version as always.
    expect((await dav('PUT', 'locked/new.odt', { if: `(${lockToken})` }, 'edited')).status).toBe(204);
    expect(await versions('locked/new.odt')).toBe(2);
    expect((await dav('UNLOCK', 'locked/new.odt', { 'lock-token': lockToken })).status).toBe(204);
  });

  it('WebDAV PUT with If-Match pins the version it checked', async () => {
    const first = await dav('PUT', 'pin/a.txt', {}, 'one');
    const etag = first.headers.get('etag')!;
    expect((await dav('PUT', 'pin/a.txt', { 'if-match': etag }, 'two')).status).toBe(204);
    expect((await dav('PUT', 'pin/a.txt', { 'if-match': etag }, 'three')).status).toBe(412);
    expect((await dav('DELETE', 'pin/a.txt', { 'if-match': etag })).status).toBe(412);
    expect(await versions('pin/a.txt')).toBe(2);
  });
});
