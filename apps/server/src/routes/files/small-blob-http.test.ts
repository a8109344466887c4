import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTieredBlobStore } from '@stoa/blob';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../../http/test-app.js';

const KiB = 1024;

/**
 * Small files kept in the database (the tiered store, on by default at `serve`) are written to the client in one
 * piece with their headers instead of through a stream (issue 30). Over a real socket, as clients see it: the same
 * bytes, headers, ranges, HEAD and conditions as a file on disk, at the API and at WebDAV.
 */
describe.each(testDbKinds())('small files from the database over HTTP on %s', (kind) => {
  let s: TestApp;
  let base: string;
  const small = randomBytes(4 * KiB);
  const edge = randomBytes(64 * KiB);
  const big = randomBytes(64 * KiB + 1);
  beforeAll(async () => {
    s = await createTestApp(kind);
    s.t.platform.blobs = createTieredBlobStore({ store: s.t.platform.blobs, table: s.t.platform.db.inlineBlobs, maxInlineBytes: 64 * KiB });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    for (const [path, body] of [
      ['s/small.bin', small],
      ['s/edge.bin', edge],
      ['s/big.bin', big],
    ] as const) {
      const r = await fetch(`${base}/api/v1/projects/default/files/content?path=${path}`, {
        method: 'PUT',
        headers: { ...s.auth(s.adminToken), 'content-type': 'application/octet-stream' },
        body,
      });
      expect(r.status).toBe(201);
    }
  }, 60_000);
  afterAll(() => s.close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${base}/api/v1/projects/default/files/content?path=${path}`, { method, headers: { ...s.auth(s.adminToken), ...headers } });

  it('keeps the small ones in the database and the larger one on disk', async () => {
    const keys = await s.t.platform.db.kysely.selectFrom('files').select(['path', 'blob_key']).orderBy('path').execute();
    const inTable = await Promise.all(keys.map(async (k) => [k.path, (await s.t.platform.db.inlineBlobs.size(k.blob_key)) !== null]));
    expect(Object.fromEntries(inTable)).toEqual({ 's/big.bin': false, 's/edge.bin': true, 's/small.bin': true });
  });

  it('serves the whole file with its length, tag and download headers, from the database as from disk', async () => {
    for (const [path, bytes] of [
      ['s/small.bin', small],
      ['s/edge.bin', edge],
      ['s/big.bin', big],
    ] as const) {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
      expect(r.headers.get('content-length')).toBe(String(bytes.length));
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('accept-ranges')).toBe('bytes');
    }
  });

  it('serves a range, a suffix range, HEAD and 304 of a small file', async () => {
    const part = await get('s/small.bin', { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${small.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(small.subarray(100, 200))).toBe(true);
    const tail = await get('s/edge.bin', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(edge.subarray(edge.length - 10))).toBe(true);
    const head = await get('s/small.bin', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(small.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const tag = (await get('s/small.bin')).headers.get('etag')!;
    const again = await get('s/small.bin', { 'if-none-match': tag });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the same bytes at WebDAV, whole and by range', async () => {
    const auth = { authorization: 'Basic ' + Buffer.from(`anyone:${s.adminToken}`).toString('base64') };
    const whole = await fetch(`${base}/dav/s/small.bin`, { headers: auth });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(small)).toBe(true);
    const part = await fetch(`${base}/dav/s/edge.bin`, { headers: { ...auth, range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(edge.subarray(0, 10))).toBe(true);
    const head = await fetch(`${base}/dav/s/small.bin`, { method: 'HEAD', headers: auth });
    expect(head.headers.get('content-length')).toBe(String(small.length));
  });
});
