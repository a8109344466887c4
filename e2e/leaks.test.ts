/**
 * Nothing learned from outside one's reach (issue 27), tried against the real `stoa serve` as an attacker would:
 * a forged Host header must not steer the absolute URLs the server writes (MCP's auth metadata and its
 * `WWW-Authenticate` challenge), uploaded HTML is served under the sandbox CSP at every door that hands out a
 * user's bytes (download, signed link, WebDAV GET, zip), a change made with the session cookie from another site
 * is refused (403 cross_site) while the web UI's own and bearer-token requests pass, and a conversation one is
 * not in answers exactly like a missing one. On SQLite, and on PostgreSQL with STOA_TEST_PG=1.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '@stoa/db/testing';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const TOKEN = 'stoa_test_admin_token_for_leaks_0123456789';
const PUBLIC = 'https://stoa.example.org';

/** A request with a Host header of the caller's choosing (fetch will not send one). */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const kinds: Array<'sqlite' | 'postgres'> = process.env.STOA_TEST_PG === '1' ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(kinds)('nothing learned from outside one’s reach, on %s', { timeout: 240_000 }, (kind) => {
  let server: StoaServer;
  let withPublic: StoaServer;
  /** Where the server with a public URL really listens (its banner prints the public URL). */
  let publicLocal: string;
  const drops: Array<() => Promise<void>> = [];
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1/projects/default${path}`, { ...init, headers: { ...bearer, ...init.headers } });

  beforeAll(async () => {
    const envFor = async (): Promise<Record<string, string>> => {
      if (kind === 'sqlite') return {};
      const db = await createTestDb('postgres');
      drops.push(db.cleanup);
      return { STOA_DATABASE_URL: db.url! };
    };
    server = await startStoaServer({ env: { STOA_ADMIN_TOKEN: TOKEN, ...(await envFor()) }, timeoutMs: 90_000 });
    const port = await freePort();
    publicLocal = `http://127.0.0.1:${port}`;
    withPublic = await startStoaServer({ port, env: { STOA_ADMIN_TOKEN: TOKEN, STOA_PUBLIC_URL: `${PUBLIC}/`, ...(await envFor()) }, timeoutMs: 90_000 });
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
    await withPublic?.stop();
    for (const d of drops) await d();
  });

  it('a forged Host header never reaches the URLs the server writes: the listen address, or the configured public URL', async () => {
    const evil = { host: 'evil.example' };
    for (const [local, origin] of [
      [server.url, server.url],
      [publicLocal, PUBLIC],
    ] as const) {
      const meta = await raw(`${local}/.well-known/oauth-protected-resource`, { headers: evil });
      expect(meta.status).toBe(200);
      expect(JSON.parse(meta.body)).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
      expect(meta.body).not.toContain('evil.example');
      const refused = await raw(`${local}/mcp`, { method: 'POST', headers: { ...evil, 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(`Bearer realm="stoa", resource_metadata="${origin}/.well-known/oauth-protected-resource"`);
    }
    // Signed links start with the configured public URL; without one they stay relative to this server.
    for (const [local, prefix] of [
      [server.url, '/api/v1/files/signed/'],
      [publicLocal, `${PUBLIC}/api/v1/files/signed/`],
    ] as const) {
      const put = await fetch(`${local}/api/v1/projects/default/files/content?path=link.txt`, { method: 'PUT', headers: bearer, body: 'x' });
      expect(put.status).toBeLessThan(300);
      const r = await raw(`${local}/api/v1/projects/default/files/resolve?path=link.txt`, { headers: { ...bearer, host: 'evil.example' } });
      expect((JSON.parse(r.body) as { url: string }).url.startsWith(prefix)).toBe(true);
    }
  });

  it('uploaded HTML and SVG are served under the sandbox CSP at every door: download, signed link, WebDAV GET, zip', async () => {
    const html = '<html><body><script>fetch("/api/v1/projects/default/files")</script></body></html>';
    expect((await api('/files/content?path=user/evil.html', { method: 'PUT', body: html })).status).toBeLessThan(300);
    expect(
      (await api('/files/content?path=user/evil.svg', { method: 'PUT', body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' }))
        .status,
    ).toBeLessThan(300);
    const sandboxed = (res: Response, door: string) => {
      expect(res.status, door).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, door).toMatch(/default-src 'none'/);
      expect(csp, door).toMatch(/\bsandbox\b/);
    };
    for (const p of ['user/evil.html', 'user/evil.svg']) {
      sandboxed(await api(`/files/content?path=${p}`), `download ${p}`);
      const { url } = (await (await api(`/files/resolve?path=${p}`)).json()) as { url: string };
      sandboxed(await fetch(`${server.url}${url}`), `signed link ${p}`);
      const basic = { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` };
      sandboxed(await fetch(`${server.url}/dav/${p}`, { headers: basic }), `WebDAV GET ${p}`);
    }
    sandboxed(
      await api('/files/archive', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['user/evil.html'] }) }),
      'zip',
    );
  });

  it('a change made with the session cookie from another site is refused (403 cross_site); the web UI’s own and bearer requests pass', async () => {
    const code = new URL(server.loginUrl).searchParams.get('code')!;
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const upload = (path: string, headers: Record<string, string>) =>
      fetch(`${server.url}/api/v1/projects/default/files/content?path=${path}`, { method: 'PUT', headers, body: `content of ${path}` });
    const crossSite: Array<[string, Record<string, string>]> = [
      ['another origin', { origin: 'https://evil.example' }],
      ['a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
      ['another site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
      ['an opaque origin', { origin: 'null' }],
    ];
    for (const [name, headers] of crossSite) {
      const res = await upload(`csrf/${name.replaceAll(' ', '-')}.txt`, { cookie, ...headers });
      expect(res.status, name).toBe(403);
      expect(await res.json(), name).toMatchObject({ code: 'cross_site', status: 403 });
    }
    // Forms posted from another site, and deletes, are refused the same way; nothing was stored.
    const form = await fetch(`${server.url}/api/v1/projects/default/files?path=link.txt`, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(form.status).toBe(403);
    expect((await api('/files/stat?path=link.txt')).status).toBe(200);
    expect((await api('/files/stat?path=csrf/another-origin.txt')).status).toBe(404);
    // The web UI itself (same origin), a client that is no browser (no such headers), and any bearer request pass.
    expect((await upload('csrf/same-origin.txt', { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBeLessThan(300);
    expect((await upload('csrf/no-browser.txt', { cookie })).status).toBeLessThan(300);
    expect((await upload('csrf/bearer.txt', { ...bearer, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBeLessThan(300);
    // Reading stays open to links from elsewhere (a GET changes nothing).
    expect((await fetch(`${server.url}/api/v1/projects/default/usage`, { headers: { cookie, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('a conversation one is not in answers exactly like a missing one: its trace and its MEMORY.md', async () => {
    const made = await api('/conversations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'secret-plans' }),
    });
    expect(made.status).toBeLessThan(300);
    const conv = ((await made.json()) as { id: string }).id;
    const member = await api('/members', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'bob', role: 'editor' }),
    });
    expect(member.status).toBeLessThan(300);
    const minted = await api('/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: 'bob' }) });
    expect(minted.status).toBeLessThan(300);
    const bob = { authorization: `Bearer ${((await minted.json()) as { token: string }).token}` };
    const asBob = async (path: string) => {
      const res = await fetch(`${server.url}/api/v1/projects/default${path}`, { headers: bob });
      return {
        status: res.status,
        body: (await res.text()).replaceAll(/conv_[A-Za-z0-9]+|secret-plans|no-such-channel/g, 'X').replace(/"instance":"[^"]*"/, ''),
      };
    };
    for (const [hidden, missing] of [
      [`/conversations/${conv}/trace`, '/conversations/conv_nosuchconversation0/trace'],
      ['/memory/file?file=MEMORY.md&conversation=secret-plans', '/memory/file?file=MEMORY.md&conversation=no-such-channel'],
    ]) {
      const [h, m] = [await asBob(hidden!), await asBob(missing!)];
      expect(h.status, hidden).toBe(404);
      expect(h, hidden).toEqual(m);
    }
  });
});
