import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { buildApp } from '../app.js';

const compressScript = fileURLToPath(new URL('../../../../scripts/compress-web.mjs', import.meta.url));

describe('the web UI assets: precompressed, cached for good when fingerprinted, index.html always revalidated', () => {
  const root = mkdtempSync(join(tmpdir(), 'stoa-web-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  let t: TestPlatform;
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), `<!doctype html><title>Stoa</title><script type="module" src="/assets/index-AbCd3f_9.js"></script>`);
    writeFileSync(join(root, 'assets/index-AbCd3f_9.js'), script);
    // The same step as `npm run build -w @stoa/web`.
    execFileSync(process.execPath, [compressScript, root]);
    t = await createTestPlatform('sqlite');
    app = await buildApp({ platform: t.platform, webRoot: root });
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the smallest encoding the browser accepts, with a year of immutable caching', async () => {
    const url = '/assets/index-AbCd3f_9.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect([br.statusCode, br.headers['content-encoding'], br.headers['cache-control']]).toEqual([200, 'br', 'public, max-age=31536000, immutable']);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await app.inject({ url });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, script]);
  });

  it('answers every client route with index.html that the browser must revalidate', async () => {
    for (const url of ['/', '/index.html', '/wiki/handbook/start', '/files/reports']) {
      const r = await app.inject({ url });
      expect([url, r.statusCode, r.headers['cache-control'], r.body]).toEqual([url, 200, 'no-cache', expect.stringContaining('<title>Stoa</title>')]);
    }
  });
});
