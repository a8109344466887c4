import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeIndex } from '@stoa/contract/route-index';
import { StoaClient } from '@stoa/sdk/client';
import { jsonFetch } from './json-http.js';

describe("remote mode's JSON calls without fetch", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; url: string; body: string; auth: string | undefined }> = [];
  const files = Array.from({ length: 300 }, (_, i) => ({ path: `report-${i}.md`, size: i }));

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization });
        const accepts = String(req.headers['accept-encoding'] ?? '');
        if (req.url!.startsWith('/api/v1/projects/moved/')) {
          res.writeHead(302, { location: '/api/v1/projects/default/files?prefix=' }).end();
        } else if (req.url!.startsWith('/api/v1/projects/default/files?')) {
          const json = Buffer.from(JSON.stringify({ files, nextCursor: null }));
          if (accepts.includes('br')) res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(json));
          else if (accepts.includes('gzip')) res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(json));
          else res.writeHead(200, { 'content-type': 'application/json' }).end(json);
        } else if (req.method === 'POST') {
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ path: 'reports', echoed: JSON.parse(body) }));
        } else {
          res
            .writeHead(404, { 'content-type': 'application/problem+json' })
            .end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'no file "nope.md"' }));
        }
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const client = () => new StoaClient({ url, token: 'tok_1', fetch: jsonFetch });

  it('reads a compressed listing whole, with the token sent', async () => {
    const page = await client().call(routeIndex.files.list, { project: 'default', prefix: '' });
    expect(page.files).toHaveLength(300);
    expect(page.files[299]).toEqual({ path: 'report-299.md', size: 299 });
    expect(seen.at(-1)?.auth).toBe('Bearer tok_1');
  });

  it('sends a JSON body and reads the answer', async () => {
    const r = (await client().call(routeIndex.files.createFolder, { project: 'default', path: 'reports' })) as unknown as { echoed: unknown };
    expect(seen.at(-1)?.method).toBe('POST');
    expect(r.echoed).toEqual({ path: 'reports' });
  });

  it("turns a problem answer into the server's error code and message", async () => {
    await expect(client().call(routeIndex.files.stat, { project: 'default', path: 'nope.md' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'no file "nope.md"',
    });
  });

  it('follows a redirect (through fetch)', async () => {
    const page = await client().call(routeIndex.files.list, { project: 'moved', prefix: '' });
    expect(page.files).toHaveLength(300);
  });

  it('keeps the connection error Node gives, which the CLI reports as "cannot reach the Stoa server"', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    await expect(new StoaClient({ url: `http://127.0.0.1:${port}`, fetch: jsonFetch }).call(routeIndex.system.health, {})).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
