import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allRoutes, errorCodes } from '@stoa/contract';
import { createAgent, createToken, deceivingCharacter } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * Property-based fuzzing of hostile input through the HTTP app (issue 9): whatever arrives — paths, names,
 * JSON bodies, headers, tool arguments, markdown links, WebDAV headers — the answer is never a 500, every
 * refusal carries a documented code, and nothing lands outside the project. A fixed seed and a bounded number
 * of runs in the normal test run; `npm run fuzz` sets STOA_FUZZ_RUNS for a long run.
 */
const runs = Number(process.env.STOA_FUZZ_RUNS ?? 40);
const params = { seed: Number(process.env.STOA_FUZZ_SEED ?? 20261203), numRuns: runs };
const codes = new Set(Object.keys(errorCodes));

/** Strings with what breaks parsers: separators, dots, controls, NUL, bidi and zero-width characters, escapes. */
const hostileChar = fc.constantFrom(
  '/',
  '\\',
  '.',
  '..',
  '%',
  '%00',
  '%2e',
  '%2f',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2066',
  '\u200b',
  '\ufeff',
  '\ud800',
  '~',
  ':',
  '*',
  '?',
  '"',
  '<',
  '>',
  '|',
  ' ',
  '\t',
  '\n',
  '#',
  '[[',
  ']]',
  '(',
  ')',
  '\u00e9',
  'e\u0301',
  '\u4e2d',
  'a',
);
const hostileString = fc.oneof(fc.string({ unit: hostileChar, maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 300 }));

/** Percent-encodes like a client would; a lone surrogate becomes the invalid UTF-8 bytes a broken client sends. */
function urlEncode(raw: string): string {
  try {
    return encodeURIComponent(raw);
  } catch {
    return encodeURIComponent(raw.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

function stays(path: string): boolean {
  return (
    !path.startsWith('/') &&
    !path.split('/').some((s) => s === '..' || s === '.' || s === '') &&
    !/[\u0000-\u001f\u007f]/.test(path) &&
    !deceivingCharacter(path)
  );
}

describe('fuzzing hostile input (fast-check, fixed seed)', () => {
  let s: TestApp;
  let auth: { authorization: string };
  let agentAuth: { authorization: string };
  let agentId: string;
  beforeAll(async () => {
    s = await createTestApp('sqlite');
    auth = s.auth(s.adminToken);
    const admin = await s.t.admin();
    agentId = (await createAgent(admin, { name: 'Fuzzed', files: 'on' })).id;
    agentAuth = s.auth((await createToken(admin, { agent: agentId })).token);
  });
  afterAll(() => s.close());

  /** A refusal must be a documented problem; success is fine. */
  function expectSafe(res: { statusCode: number; body: string; headers: Record<string, unknown> }, what: string): void {
    expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
    if (res.statusCode >= 400 && String(res.headers['content-type'] ?? '').includes('problem+json')) {
      expect(codes.has(JSON.parse(res.body).code), `${what}: undocumented code in ${res.body.slice(0, 200)}`).toBe(true);
    }
  }

  it('paths and names: uploads either store a clean path inside the project or refuse with a documented code', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, async (raw) => {
        const res = await s.app.inject({ method: 'PUT', url: `/api/v1/projects/default/files/content?path=${urlEncode(raw)}`, headers: auth, payload: 'x' });
        expectSafe(res, `PUT path ${JSON.stringify(raw)}`);
        if (res.statusCode < 300) expect(stays(JSON.parse(res.body).file.path), JSON.stringify(raw)).toBe(true);
        const agent = await s.app.inject({
          method: 'POST',
          url: '/api/v1/projects/default/agents',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ name: raw }),
        });
        expectSafe(agent, `agent name ${JSON.stringify(raw)}`);
        if (agent.statusCode < 300) expect(deceivingCharacter(JSON.parse(agent.body).name)).toBeNull();
      }),
      params,
    );
  });

  it('JSON bodies on every JSON route: never a 500, every refusal documented', async () => {
    const routes = allRoutes.filter((r) => !r.raw && (r.method === 'POST' || r.method === 'PUT'));
    const body = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.string({ maxLength: 50 }).map((x) => `{"path": ${JSON.stringify(x)}, "from": 1, "to": [], "text": "\\u0000"}`),
      fc.constantFrom('{', '[]', 'null', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {}}}', '"\\ud800"', '1e999'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async (route, payload) => {
        const url = '/api/v1' + route.path.replace('{project}', 'default').replace(/\{[a-zA-Z]+\}/g, 'x');
        const res = await s.app.inject({ method: route.method, url, headers: { ...auth, 'content-type': 'application/json' }, payload });
        expectSafe(res, `${route.method} ${url} ${payload.slice(0, 80)}`);
      }),
      params,
    );
  });

  it('headers: authorization, content type, If-Match, Range and conversation headers', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 60 }).map((v) => v.replace(/[\r\n]/g, '')),
      fc.constantFrom('Bearer ', 'Bearer \u0000', 'bytes=5-1', 'bytes=-0', 'bytes=0-999999999999999999', '"1"', '*', 'multipart/form-data; boundary='),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('authorization', 'content-type', 'if-match', 'if-none-match', 'range', 'x-stoa-conversation', 'cookie'),
        value,
        async (name, v) => {
          const headers = { ...auth, [name]: v.replace(/[^\t\x20-\x7e\x80-\xff]/g, '') };
          for (const [method, url] of [
            ['GET', '/api/v1/projects/default/files/content?path=fuzz.txt'],
            ['PUT', '/api/v1/projects/default/files/content?path=fuzz.txt'],
            ['GET', '/api/v1/projects/default/usage'],
          ] as const) {
            const res = await s.app.inject({ method, url, headers, payload: method === 'PUT' ? 'fuzz' : undefined });
            expectSafe(res, `${method} ${url} ${name}: ${JSON.stringify(v)}`);
          }
        },
      ),
      params,
    );
  });

  it('MCP tool arguments: refusals, never internal errors, and writes stay in the agent folder', async () => {
    const tools = [
      'ws_list_files',
      'ws_read_file',
      'ws_write_file',
      'ws_delete_file',
      'list_files',
      'read_file',
      'create_file',
      'str_replace',
      'full_file_rewrite',
      'delete_file',
      'edit_file',
      'list_versions',
      'restore_version',
    ];
    const args = fc.oneof(
      fc.record({ path: hostileString, content: fc.string({ maxLength: 20 }) }),
      fc.record({ path: hostileString, old_str: fc.string(), new_str: fc.string() }),
      fc.record({ path: hostileString, edits: fc.array(fc.record({ old_str: fc.string(), new_str: fc.string() }), { maxLength: 3 }), dry_run: fc.boolean() }),
      fc.record({ path: hostileString, version: fc.integer() }),
      fc.anything({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), args, async (name, a) => {
        const res = await s.app.inject({
          method: 'POST',
          url: `/api/v1/projects/default/tools/${name}/call`,
          headers: { ...agentAuth, 'content-type': 'application/json' },
          payload: JSON.stringify({ arguments: a }),
        });
        expectSafe(res, `${name} ${String(JSON.stringify(a)).slice(0, 100)}`);
        if (res.statusCode === 200) {
          const r = JSON.parse(res.body) as { code?: string; path?: string | null };
          expect(r.code, `${name} ${String(JSON.stringify(a)).slice(0, 100)}`).not.toBe('internal');
          if (r.path && /write|create|replace|rewrite|edit|restore/.test(name)) expect(r.path.startsWith(`agents/${agentId}/`), r.path).toBe(true);
        }
      }),
      params,
    );
  });

  it('markdown links in wiki pages: saved or refused, and every link target is a clean wiki path', async () => {
    const link = fc.oneof(
      hostileString.map((t) => `[[${t}]]`),
      hostileString.map((t) => `[x](${t})`),
      fc.constantFrom('[[../../etc/passwd]]', '[a](javascript:alert(1))', '[[a|b|c]]', '[[]]', '[[%2e%2e]]'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(link, { maxLength: 5 }), fc.string({ maxLength: 40 }), async (links, prose) => {
        const text = `${prose}\n${links.join(' ')}`;
        const res = await s.app.inject({
          method: 'PUT',
          url: '/api/v1/projects/default/wiki/page',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ path: 'fuzz/page', text }),
        });
        expectSafe(res, `wiki ${JSON.stringify(text).slice(0, 120)}`);
        if (res.statusCode >= 300) return;
        const page = await s.app.inject({ url: '/api/v1/projects/default/wiki/page?path=fuzz/page', headers: auth });
        expectSafe(page, 'wiki get');
        for (const l of (JSON.parse(page.body).links ?? []) as Array<{ path?: string; to?: string }>) {
          const target = l.path ?? l.to ?? '';
          expect(stays(target), target).toBe(true);
        }
      }),
      params,
    );
  });

  it('WebDAV request headers: Destination, Depth, Overwrite and If never make a 500', async () => {
    await s.app.inject({ method: 'PUT', url: '/api/v1/projects/default/files/content?path=dav/src.txt', headers: auth, payload: 'dav' });
    const destination = fc.oneof(
      hostileString.map((p) => `http://localhost/dav/${p}`),
      hostileString,
      fc.constantFrom('http://localhost/dav/%E0%A4%A', 'http://localhost/dav/../../x', '/dav/%00', 'http://evil.example/dav/x', 'http://localhost/dav/dav/'),
    );
    const header = fc.record({
      destination,
      depth: fc.constantFrom('0', '1', 'infinity', '2', '-1', '', 'x'),
      overwrite: fc.constantFrom('T', 'F', '', 'maybe'),
      if: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('(<opaquelocktoken:x>)', '<http://localhost/dav/a> (Not <x>)', '(')),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('COPY', 'MOVE', 'PROPFIND', 'DELETE', 'LOCK'), header, async (method, h) => {
        const headers = Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v.replace(/[^\t\x20-\x7e]/g, '')]));
        const res = await s.app.inject({ method: method as 'GET', url: '/dav/dav/src.txt', headers: { ...auth, ...headers } });
        expect(res.statusCode, `${method} ${JSON.stringify(headers)} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
        const listing = await s.app.inject({ url: '/api/v1/projects/default/files', headers: auth });
        for (const f of JSON.parse(listing.body).files as Array<{ path: string }>) expect(stays(f.path), f.path).toBe(true);
        await s.app.inject({ method: 'PUT', url: '/api/v1/projects/default/files/content?path=dav/src.txt', headers: auth, payload: 'dav' });
      }),
      params,
    );
  });

  it('WebDAV Destination with a malformed percent-encoding is a 4xx', async () => {
    await s.app.inject({ method: 'PUT', url: '/api/v1/projects/default/files/content?path=dav/src.txt', headers: auth, payload: 'dav' });
    const res = await s.app.inject({ method: 'COPY', url: '/dav/dav/src.txt', headers: { ...auth, destination: 'http://localhost/dav/%E0%A4%A' } });
    expect(res.statusCode).toBe(400);
  });
});
