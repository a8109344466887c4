import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

describe('JSON answers are compressed above 1 kB; file bytes never are', () => {
  let s: TestApp;
  const text = 'All work and no play makes Jack a dull boy.\n'.repeat(200);

  beforeAll(async () => {
    s = await createTestApp('sqlite');
    const headers = s.auth(s.adminToken);
    for (let i = 0; i < 40; i++)
      await s.app.inject({ method: 'PUT', url: `/api/v1/projects/default/files/content?path=r${i}.md`, headers, payload: `# ${i}\n` });
    await s.app.inject({ method: 'PUT', url: '/api/v1/projects/default/files/content?path=book.txt', headers, payload: text });
  });
  afterAll(async () => s?.close());

  it('a folder listing arrives gzip or brotli as the client asks, and decodes to the same answer', async () => {
    const url = '/api/v1/projects/default/folders?folder=';
    const plain = await s.app.inject({ url, headers: s.auth(s.adminToken) });
    const gz = await s.app.inject({ url, headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip' } });
    const br = await s.app.inject({ url, headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip, deflate, br' } });
    expect([plain.headers['content-encoding'], gz.headers['content-encoding'], br.headers['content-encoding']]).toEqual([undefined, 'gzip', 'br']);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('the OpenAPI document arrives compressed too, and decodes to the same document', async () => {
    const url = '/api/v1/openapi.json';
    const plain = await s.app.inject({ url });
    const br = await s.app.inject({ url, headers: { 'accept-encoding': 'br' } });
    const gz = await s.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect([plain.headers['content-encoding'], br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual([undefined, 'br', 'gzip']);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
  });

  it('a small answer is sent as it is', async () => {
    const res = await s.app.inject({ url: '/api/v1/me', headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip' } });
    expect([res.statusCode, res.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it('a download and a byte range of a text file keep their bytes and length', async () => {
    const url = '/api/v1/projects/default/files/content?path=book.txt&redirect=false';
    const whole = await s.app.inject({ url, headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip, br' } });
    expect([whole.statusCode, whole.headers['content-encoding'], whole.body]).toEqual([200, undefined, text]);
    const part = await s.app.inject({ url, headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip, br', range: 'bytes=4-11' } });
    expect([part.statusCode, part.headers['content-encoding'], part.headers['content-length'], part.body]).toEqual([206, undefined, '8', text.slice(4, 12)]);
  });

  it('a WebDAV GET keeps its bytes', async () => {
    const res = await s.app.inject({ url: '/dav/book.txt', headers: { ...s.auth(s.adminToken), 'accept-encoding': 'gzip, br' } });
    expect([res.statusCode, res.headers['content-encoding'], res.body]).toEqual([200, undefined, text]);
  });
});
