import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * Last visit's first screen (warm-cache.ts through client.ts): each "visit" is a fresh import of the client (its
 * module state gone, as on a reload) over the same localStorage. A real HTTP server answers what the test says.
 */
let server: Server;
let base = '';
let answer = { status: 200, body: '{"id":"usr_1","name":"alice"}' };
let hold: Promise<void> = Promise.resolve();
/** A URL the server never answers (a page left before that answer came). */
let unanswered = '';
const store = new Map<string, string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === unanswered) return;
    void hold.then(() => {
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(answer.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  store.clear();
  store.set('stoa.token', 'tok_alice');
  answer = { status: 200, body: '{"id":"usr_1","name":"alice"}' };
  hold = Promise.resolve();
  unanswered = '';
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => realFetch(`${base}${url}`, init));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A new page: the client's module state starts empty, the browser's storage stays. */
async function visit() {
  vi.resetModules();
  const client = await import('./client.js');
  const { filesApi } = await import('./files.js');
  return { ...client, filesApi };
}

/** A visit whose first load asks for `me` and gets its answer, which is then written for the next visit. */
async function firstVisit() {
  const v = await visit();
  let me!: Promise<unknown>;
  v.prime(() => {
    me = v.filesApi.me();
  });
  await me;
  await v.filesApi.me();
  vi.advanceTimersByTime(1_000);
  return v;
}

describe("last visit's first screen", () => {
  it('is drawn while the fresh answer is on the wire; an unchanged answer is the very object drawn, a changed one replaces it', async () => {
    await firstVisit();
    let release!: () => void;
    hold = new Promise((done) => (release = done));
    const v = await visit();
    v.prime(() => void v.filesApi.me());
    expect(v.allWarm()).toBe(true);
    const drawn = v.arrived(() => v.filesApi.me());
    expect(drawn).toEqual({ id: 'usr_1', name: 'alice' });
    const fresh = v.filesApi.me();
    release();
    await expect(fresh).resolves.toBe(drawn);

    hold = new Promise((done) => (release = done));
    const next = await visit();
    next.prime(() => void next.filesApi.me());
    answer = { status: 200, body: '{"id":"usr_1","name":"alice b."}' };
    expect(next.arrived(() => next.filesApi.me())).toEqual({ id: 'usr_1', name: 'alice' });
    const changed = next.filesApi.me();
    release();
    await expect(changed).resolves.toEqual({ id: 'usr_1', name: 'alice b.' });
  });

  it('is nothing for a call the first load did not ask for early', async () => {
    await firstVisit();
    const v = await visit();
    expect(v.arrived(() => v.filesApi.me())).toBeUndefined();
    expect(v.allWarm()).toBe(false);
  });

  it('is never read under another token, and is removed', async () => {
    await firstVisit();
    expect(store.get('stoa.warm')).toContain('alice');
    store.set('stoa.token', 'tok_bob');
    hold = new Promise(() => undefined);
    const v = await visit();
    v.prime(() => void v.filesApi.me());
    expect(v.arrived(() => v.filesApi.me())).toBeUndefined();
    expect(v.allWarm()).toBe(false);
    expect(store.has('stoa.warm')).toBe(false);
  });

  it('is cleared by a sign-out or a new sign-in, and by a 401', async () => {
    const v = await firstVisit();
    v.setToken(null);
    expect(store.has('stoa.warm')).toBe(false);

    store.set('stoa.token', 'tok_alice');
    const w = await firstVisit();
    expect(store.has('stoa.warm')).toBe(true);
    answer = { status: 401, body: '{"code":"unauthorized"}' };
    await expect(w.filesApi.projects()).rejects.toMatchObject({ status: 401 });
    expect(store.has('stoa.warm')).toBe(false);
  });

  it("keeps last visit's answer to a call this visit asked but left before it was answered", async () => {
    const v = await visit();
    let both!: Promise<unknown>;
    v.prime(() => {
      both = Promise.all([v.filesApi.me(), v.filesApi.projects()]);
    });
    await both;
    vi.advanceTimersByTime(1_000);
    unanswered = '/api/v1/projects';
    answer = { status: 200, body: '{"id":"usr_1","name":"alice b."}' };
    const next = await visit();
    let me!: Promise<unknown>;
    next.prime(() => {
      me = next.filesApi.me();
      void next.filesApi.projects();
    });
    await me;
    vi.advanceTimersByTime(1_000);
    const third = await visit();
    third.prime(() => void Promise.all([third.filesApi.me(), third.filesApi.projects()]));
    expect(third.allWarm()).toBe(true);
    expect(third.arrived(() => third.filesApi.me())).toEqual({ id: 'usr_1', name: 'alice b.' });
    expect(third.arrived(() => third.filesApi.projects())).toEqual({ id: 'usr_1', name: 'alice' });
  });

  it('keeps nothing asked under a token that has changed since', async () => {
    let release!: () => void;
    hold = new Promise((done) => (release = done));
    const v = await visit();
    let me!: Promise<unknown>;
    v.prime(() => {
      me = v.filesApi.me();
    });
    store.set('stoa.token', 'tok_bob');
    release();
    await me;
    vi.advanceTimersByTime(1_000);
    expect(store.has('stoa.warm')).toBe(false);
  });
});
