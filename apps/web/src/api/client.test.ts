import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrived, prime } from './client.js';
import { filesApi } from './files.js';

/*
 * The first load's early answers (first-load.ts): asked for before the page, handed to the page's first identical
 * call, and readable at once by a first render (`arrived`). A real HTTP server counts what the browser would send.
 */
let server: Server;
let base = '';
const asked: string[] = [];
let hold: Promise<void> = Promise.resolve();

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    void hold.then(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'usr_1', name: 'alice', asked: asked.length }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

beforeEach(() => {
  asked.length = 0;
  hold = Promise.resolve();
  const store = new Map<string, string>([['stoa.token', `tok_${Math.random()}`]]);
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
  // The browser resolves /api/v1/… against the page's origin; here the origin is the test server.
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => realFetch(`${base}${url}`, init));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('early answers of the first load', () => {
  it('are readable at once once in, and still handed to the page, which sends nothing again', async () => {
    let release!: () => void;
    hold = new Promise((done) => (release = done));
    let early!: Promise<unknown>;
    prime(() => {
      early = filesApi.me();
    });
    expect(arrived(() => filesApi.me())).toBeUndefined();
    release();
    const value = await early;
    expect(arrived(() => filesApi.me())).toBe(value);
    // Reading it did not take it: the page's own call gets the very same answer, without a second request.
    await expect(filesApi.me()).resolves.toBe(value);
    expect(asked).toEqual(['/api/v1/me']);
    // Handed out once: the next call asks the server.
    await filesApi.me();
    expect(asked).toHaveLength(2);
  });

  it('are nothing for a call that was not asked for early, and reading sends no request', () => {
    expect(arrived(() => filesApi.usage('default'))).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('are not shown once stale', async () => {
    let early!: Promise<unknown>;
    prime(() => {
      early = filesApi.me();
    });
    await early;
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 60_000);
    expect(arrived(() => filesApi.me())).toBeUndefined();
  });
});
