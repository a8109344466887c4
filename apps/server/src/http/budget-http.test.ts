import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputMax, SEARCH_OFFSET_MAX } from '@stoa/contract';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** `depth` nested arrays, as an attacker sends them: a few MB of `[[[[…]]]]`. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/**
 * Issue 27: no request can stop the others. Each attack is sent to a listening server beside a small GET; the
 * attack is refused or bounded with a 4xx (never a 5xx), and the small GET is answered.
 */
describe.each(kinds)('a budget for every request (issue 27, %s)', (kind) => {
  let s: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    s = await createTestApp(kind, { jsonBodyBytes: 1024 * 1024 });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    token = s.adminToken;
  });
  afterAll(() => s.close());

  const send = (method: string, url: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, { method, body, headers: { 'content-type': 'application/json', ...headers } });
  const authed = { authorization: '' };

  /** Sends the attack and a small GET together; both answered, the GET with 200, the attack with no 5xx. */
  async function beside(attack: () => Promise<Response>): Promise<{ status: number; body: any }> {
    const [a, probe] = await Promise.all([attack(), fetch(`${base}/api/v1/health`)]);
    expect(probe.status).toBe(200);
    expect(a.status).toBeLessThan(500);
    const text = await a.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (WebDAV answers text)
    }
    return { status: a.status, body };
  }

  it('refuses deeply nested JSON from anyone, before parsing it, on a public route', async () => {
    const r = await beside(() =>
      send('POST', '/api/v1/auth/login', JSON.stringify({ code: 'x', deep: JSON.parse(nested(60)) }).replace('"x"', nested(400_000))),
    );
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('too_deep');
  });

  it('refuses a JSON body over its own size limit with 413 too_large', async () => {
    authed.authorization = `Bearer ${token}`;
    const big = JSON.stringify({ path: 'a', text: 'x'.repeat(2 * 1024 * 1024) });
    const r = await beside(() => send('PUT', '/api/v1/projects/default/wiki/page', big, authed));
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('too_large');
  });

  it('accepts nesting a route may need, under the limit', async () => {
    const r = await beside(() =>
      send('POST', '/api/v1/projects/default/tools/tree/call', JSON.stringify({ arguments: { depth: 2 } }), { authorization: `Bearer ${token}` }),
    );
    expect(r.status).toBe(200);
  });

  it('refuses deeply nested JSON-RPC at /mcp, before the token is looked at', async () => {
    const r = await beside(() =>
      send('POST', '/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${nested(500_000)}}`, { accept: 'application/json, text/event-stream' }),
    );
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('too_deep');
  });

  it('refuses deeply nested WebDAV XML', async () => {
    const xml = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:">${'<D:prop>'.repeat(30_000)}${'</D:prop>'.repeat(30_000)}</D:propfind>`;
    const r = await beside(() =>
      fetch(`${base}/dav/default/`, {
        method: 'PROPFIND',
        body: xml,
        headers: { authorization: `Bearer ${token}`, depth: '0', 'content-type': 'application/xml' },
      }),
    );
    expect(r.status).toBe(400);
    expect(String(r.body)).toContain('too_deep');
  });

  it('refuses a string longer than the contract allows with 400, before any work', async () => {
    const q = encodeURIComponent('refund '.repeat(Math.ceil((inputMax.query + 1) / 7)));
    const r = await beside(() => fetch(`${base}/api/v1/projects/default/search?q=${q}`, { headers: { authorization: `Bearer ${token}` } }));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('bad_request');
    const page = await beside(() =>
      send('PUT', '/api/v1/projects/default/wiki/page', JSON.stringify({ path: 'a', text: 'x', title: 't'.repeat(inputMax.title + 1) }), {
        authorization: `Bearer ${token}`,
      }),
    );
    expect(page.status).toBe(400);
    // Paging deeper than SEARCH_OFFSET_MAX would rank the whole index for one request.
    const deep = await beside(() =>
      fetch(`${base}/api/v1/projects/default/search?q=refund&offset=${SEARCH_OFFSET_MAX + 1}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(deep.status).toBe(400);
  });

  it('matches a glob over long names at once, without backtracking (a short pattern once stalled the server for minutes)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 20; i++) {
      const name = `${'a'.repeat(200)}${i}.txt`;
      const put = await fetch(`${base}/api/v1/projects/default/files/content?path=long/${name}`, { method: 'PUT', headers: auth, body: 'x' });
      expect(put.status).toBeLessThan(300);
    }
    const r = await beside(() =>
      send(
        'POST',
        '/api/v1/projects/default/tools/glob/call',
        JSON.stringify({ arguments: { pattern: '**/*a*a*a*a*a*a*a*a*a*a*a*a*b', prefix: 'long' } }),
        auth,
      ),
    );
    expect(r.status).toBe(200);
    expect(r.body.text).toMatch(/^No file matches/);
    const hit = await beside(() =>
      send('POST', '/api/v1/projects/default/tools/glob/call', JSON.stringify({ arguments: { pattern: 'long/*a*a*a*1?.txt' } }), auth),
    );
    expect(hit.body.text.split('\n')).toHaveLength(10);
  });

  it('imports a page whose heading holds thousands of spaces at once (a backtracking pattern took ~50 s)', async () => {
    const text = `# ${' '.repeat(200_000)}x${' '.repeat(200_000)}\nbody`;
    const r = await beside(() =>
      send('POST', '/api/v1/projects/default/wiki/import', JSON.stringify({ files: [{ file: 'spaces.md', text }] }), { authorization: `Bearer ${token}` }),
    );
    expect(r.status).toBe(200);
    expect(r.body.imported).toMatchObject([{ path: 'spaces', title: 'x' }]);
  });

  it("saves and reads a page with tens of thousands of [[links]], under each engine's SQL parameter limit", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const text = Array.from({ length: 20_000 }, (_, i) => `[[to/p${i}]]`).join(' ');
    const put = await beside(() => send('PUT', '/api/v1/projects/default/wiki/page', JSON.stringify({ path: 'many-links', text }), auth));
    expect(put.status).toBe(200);
    const get = await beside(() => fetch(`${base}/api/v1/projects/default/wiki/page?path=many-links`, { headers: auth }));
    expect(get.status).toBe(200);
    expect(get.body.links).toHaveLength(20_000);
    expect(get.body.links.every((l: { missing: boolean }) => l.missing)).toBe(true);
  });
});
