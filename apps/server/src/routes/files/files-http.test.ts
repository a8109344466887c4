import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '@stoa/contract';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../../http/test-app.js';

const base = '/api/v1/projects/default';
const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

/** A multipart/form-data body with one part per file. */
function multipart(files: Array<{ name: string; content: string | Buffer }>): { body: Buffer; contentType: string } {
  const boundary = '----stoa' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    );
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(testDbKinds())('files over HTTP on %s', (kind) => {
  let s: TestApp;
  let editor: string;
  let viewer: string;
  beforeAll(async () => {
    s = await createTestApp(kind, { quotaBytes: 200_000, previewTextBytes: 1_000, previewMediaBytes: 5_000, directUploadBytes: 50_000 });
    editor = await s.tokenFor('eddie', 'editor');
    viewer = await s.tokenFor('vivi', 'viewer');
  });
  afterAll(() => s.close());

  const put = (path: string, body: string | Buffer, token = editor, extra: Record<string, string> = {}) =>
    s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?${q({ path, ...extra })}`,
      headers: { ...s.auth(token), 'content-type': 'application/octet-stream' },
      payload: body,
    });
  const get = (url: string, token = editor, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'GET', url, headers: { ...s.auth(token), ...headers } });

  it('401 without a token and with a bad one, as problem+json with code unauthorized', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
      const res = await s.app.inject({ method: 'GET', url: `${base}/usage`, headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized', title: expect.any(String), detail: expect.any(String) });
    }
    const raw = await s.app.inject({ method: 'PUT', url: `${base}/files/content?path=a.txt`, payload: 'x' });
    expect(raw.statusCode).toBe(401);
  });

  it("403 for a viewer's upload, move and delete; nothing is stored", async () => {
    const res = await put('v/blocked.txt', 'x', viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await get(`${base}/files/stat?path=v/blocked.txt`)).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'POST', url: `${base}/files/move`, headers: s.auth(viewer), payload: { from: 'a', to: 'b' } })).statusCode).toBe(403);
  });

  it('a non-member sees the project as missing (404), not forbidden', async () => {
    const admin = await s.t.admin();
    const { createToken } = await import('@stoa/core/testing');
    // A token of a user who then stops being a member of the project.
    await s.t.platform.db.kysely
      .insertInto('users')
      .values({ id: 'usr_stranger', name: 'stranger', display_name: null, created_at: new Date().toISOString() })
      .execute();
    await s.t.platform.db.kysely
      .insertInto('members')
      .values({ project_id: admin.project.id, user_id: 'usr_stranger', role: 'viewer', created_at: new Date().toISOString() })
      .execute();
    const tok = (await createToken(admin, { user: 'stranger' })).token;
    await s.t.platform.db.kysely.deleteFrom('members').where('user_id', '=', 'usr_stranger').execute();
    const res = await get(`${base}/usage`, tok);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it('upload, stat, list, find, move, versions, restore, delete with the right statuses and problem bodies', async () => {
    let res = await put('docs/отчёт.md', '# один');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ created: true, file: { path: 'docs/отчёт.md', type: 'text/markdown', version: 1, createdBy: '' } });
    res = await put('docs/отчёт.md', '# два');
    expect(res.statusCode).toBe(200);
    expect(res.json().file.version).toBe(2);
    expect((await get(`${base}/files/stat?${q({ path: 'docs/отчёт.md' })}`)).json()).toMatchObject({ size: Buffer.byteLength('# два'), version: 2 });
    expect((await get(`${base}/files?${q({ prefix: 'docs' })}`)).json().files.map((f: any) => f.path)).toEqual(['docs/отчёт.md']);
    expect((await get(`${base}/files/find?${q({ q: 'ОТЧЁТ' })}`)).json().files.map((f: any) => f.path)).toContain('docs/отчёт.md');
    expect((await get(`${base}/folders?${q({ folder: '' })}`)).json().folders.map((f: any) => f.name)).toContain('docs');
    expect((await get(`${base}/folders/tree`)).json().map((f: any) => f.path)).toContain('docs');
    // A folder page: hashes only on request, an opaque cursor to the next page, a made-up one refused with 400.
    await put('docs/zz.md', 'z');
    const first = (await get(`${base}/folders?${q({ folder: 'docs', limit: '1' })}`)).json();
    expect(first.files[0]).not.toHaveProperty('sha256');
    expect(first.total).toBe(2);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const next = (await get(`${base}/folders?${q({ folder: 'docs', limit: '1', cursor: first.nextCursor, fields: 'full' })}`)).json();
    expect([...first.files, ...next.files].map((f: any) => f.name)).toEqual(['zz.md', 'отчёт.md']);
    expect(next.files[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(next.nextCursor).toBeNull();
    expect((await get(`${base}/folders?${q({ folder: 'docs', cursor: 'zz.md' })}`)).statusCode).toBe(400);
    expect((await get(`${base}/folders?${q({ folder: 'docs', fields: 'sha256' })}`)).statusCode).toBe(400);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}/files?${q({ path: 'docs/zz.md' })}`, headers: s.auth(editor) })).statusCode).toBe(200);
    const vs = (await get(`${base}/files/versions?${q({ path: 'docs/отчёт.md' })}`)).json();
    expect(vs.map((v: any) => [v.version, v.author])).toEqual([
      [2, 'eddie'],
      [1, 'eddie'],
    ]);
    res = await s.app.inject({ method: 'POST', url: `${base}/files/restore`, headers: s.auth(editor), payload: { path: 'docs/отчёт.md', version: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().version).toBe(3);
    await put('docs/other.md', 'x');
    res = await s.app.inject({ method: 'POST', url: `${base}/files/move`, headers: s.auth(editor), payload: { from: 'docs/other.md', to: 'docs/отчёт.md' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'already_exists', status: 409 });
    res = await s.app.inject({ method: 'POST', url: `${base}/files/move`, headers: s.auth(editor), payload: { from: 'docs/other.md', to: 'archive/' } });
    expect(res.json().path).toBe('archive/other.md');
    res = await s.app.inject({ method: 'DELETE', url: `${base}/files?${q({ path: 'archive/other.md' })}`, headers: s.auth(editor) });
    expect(res.statusCode).toBe(200);
    res = await get(`${base}/files/stat?${q({ path: 'archive/other.md' })}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', detail: 'file "archive/other.md" does not exist' });
  });

  it("400 path_invalid with the rule's message; 400 for bad input; 404 for an unknown route", async () => {
    let res = await put('a//b.txt', 'x');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'path_invalid', detail: 'empty path segment ("//") is not allowed' });
    res = await put(Array.from({ length: 11 }, () => 'd').join('/'), 'x');
    expect(res.json().detail).toBe('depth 11 exceeds 10');
    res = await s.app.inject({ method: 'POST', url: `${base}/files/restore`, headers: s.auth(editor), payload: { path: 'x.md', version: 'abc' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_request');
    res = await get('/api/v1/nope');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });

  it('413 quota_exceeded, and F8 as amended: replacing with more than STOA_DIRECT_UPLOAD_BYTES makes a new version', async () => {
    let res = await put('q/huge.bin', Buffer.alloc(250_000));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('quota_exceeded');
    expect((await get(`${base}/files/stat?path=q/huge.bin`)).statusCode).toBe(404);
    await put('q/f8.bin', Buffer.alloc(10));
    res = await put('q/f8.bin', Buffer.alloc(50_001));
    expect(res.statusCode).toBe(200);
    expect((await get(`${base}/files/stat?path=q/f8.bin`)).json()).toMatchObject({ size: 50_001, version: 2 });
    const u = (await get(`${base}/usage`)).json();
    expect(u.used).toBeLessThanOrEqual(u.quota);
    expect(u.text).toMatch(/^Used .+ of 195\.3 KiB$/);
  });

  it('multipart upload of several files into a folder keeps their names (Cyrillic, CJK, spaces)', async () => {
    const form = multipart([
      { name: 'сводка.txt', content: 'ru' },
      { name: '总结 报告.md', content: 'zh' },
      { name: 'plain.csv', content: 'a,b' },
    ]);
    const res = await s.app.inject({
      method: 'POST',
      url: `${base}/files/upload?${q({ folder: 'inbox/2026' })}`,
      headers: { ...s.auth(editor), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().files.map((f: any) => [f.path, f.size, f.type])).toEqual([
      ['inbox/2026/сводка.txt', 2, 'text/plain'],
      ['inbox/2026/总结 报告.md', 2, 'text/markdown'],
      ['inbox/2026/plain.csv', 3, 'text/csv'],
    ]);
    const bad = multipart([{ name: '..', content: 'x' }]);
    const refused = await s.app.inject({
      method: 'POST',
      url: `${base}/files/upload?folder=inbox`,
      headers: { ...s.auth(editor), 'content-type': bad.contentType },
      payload: bad.body,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('path_invalid');
    const viewerTry = await s.app.inject({
      method: 'POST',
      url: `${base}/files/upload?folder=inbox`,
      headers: { ...s.auth(viewer), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(viewerTry.statusCode).toBe(403);
  });

  it('download: attachment with filename* for Cyrillic and CJK, nosniff, ETag and 304', async () => {
    await put('dl/отчёт 2026.pdf', 'PDF-ish');
    await put('dl/年度报告.txt', '0123456789abcdefghij');
    let res = await get(`${base}/files/content?${q({ path: 'dl/отчёт 2026.pdf' })}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('PDF-ish');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_____ 2026.pdf"; filename*=UTF-8''${encodeURIComponent('отчёт 2026.pdf')}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toMatch(/^application\/pdf/);
    res = await get(`${base}/files/content?${q({ path: 'dl/年度报告.txt' })}`);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('年度报告.txt')}`);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await get(`${base}/files/content?${q({ path: 'dl/年度报告.txt' })}`, editor, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await put('dl/年度报告.txt', 'changed');
    expect((await get(`${base}/files/content?${q({ path: 'dl/年度报告.txt' })}`, editor, { 'if-none-match': etag })).statusCode).toBe(200);
    await put('dl/年度报告.txt', '0123456789abcdefghij');
    // A viewer downloads too (F14).
    expect((await get(`${base}/files/content?${q({ path: 'dl/年度报告.txt' })}`, viewer)).statusCode).toBe(200);
    // An old version by number.
    const v1 = await get(`${base}/files/content?${q({ path: 'dl/年度报告.txt', version: '1' })}`);
    expect(v1.body).toBe('0123456789abcdefghij');
    expect(v1.headers['x-stoa-version']).toBe('1');
  });

  it('download: Range bytes=0-9, bytes=-5, bytes=5-, and 416 out of range', async () => {
    await put('range/年度报告.txt', '0123456789abcdefghij');
    const url = `${base}/files/content?${q({ path: 'range/年度报告.txt' })}`;
    let res = await get(url, editor, { range: 'bytes=0-9' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('0123456789');
    expect(res.headers['content-range']).toBe('bytes 0-9/20');
    res = await get(url, editor, { range: 'bytes=-5' });
    expect([res.statusCode, res.body, res.headers['content-range']]).toEqual([206, 'fghij', 'bytes 15-19/20']);
    res = await get(url, editor, { range: 'bytes=5-' });
    expect([res.statusCode, res.body, res.headers['content-range']]).toEqual([206, '56789abcdefghij', 'bytes 5-19/20']);
    res = await get(url, editor, { range: 'bytes=20-30' });
    expect(res.statusCode).toBe(416);
    expect(res.json().code).toBe('range_not_satisfiable');
    expect(res.headers['content-range']).toBe('bytes */20');
  });

  it('preview: text as text/plain up to the limit, HTML and SVG as text/plain, PNG as image, 413 over the limit, 415 for docx', async () => {
    await put('pv/notes.md', '# hi');
    await put('pv/page.html', '<script>alert(1)</script>');
    await put('pv/pic.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await put('pv/pic.png', png);
    await put('pv/long.txt', 'x'.repeat(1_001));
    await put('pv/big.png', Buffer.alloc(5_001));
    await put('pv/letter.docx', 'PK..');
    const pv = (path: string) => get(`${base}/files/preview?${q({ path })}`);
    let res = await pv('pv/notes.md');
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([200, 'text/plain; charset=utf-8', '# hi']);
    for (const p of ['pv/page.html', 'pv/pic.svg']) {
      res = await pv(p);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.body).toContain('<script>');
    }
    res = await pv('pv/pic.png');
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'image/png']);
    expect(res.rawPayload.equals(png)).toBe(true);
    res = await pv('pv/long.txt');
    expect([res.statusCode, res.json().code]).toEqual([413, 'too_large']);
    res = await pv('pv/big.png');
    expect([res.statusCode, res.json().code]).toEqual([413, 'too_large']);
    res = await pv('pv/letter.docx');
    expect([res.statusCode, res.json().code]).toEqual([415, 'preview_unavailable']);
    res = await get(`${base}/files/preview?${q({ path: 'pv/letter.docx', info: 'true' })}`);
    expect(res.json()).toMatchObject({ kind: 'none', reason: 'unsupported' });
  });

  it('direct upload over HTTP: start (201) → send → finish; abort releases the reservation', async () => {
    const body = Buffer.alloc(60_000, 7);
    let res = await s.app.inject({ method: 'POST', url: `${base}/uploads`, headers: s.auth(editor), payload: { path: 'direct/big.bin', size: body.length } });
    expect(res.statusCode).toBe(201);
    const ticket = res.json();
    expect(ticket.url).toBeNull();
    expect((await get(`${base}/usage`)).json().reserved).toBe(60_000);
    res = await s.app.inject({
      method: 'PUT',
      url: `${base}/uploads/${ticket.uploadId}`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: body,
    });
    expect(res.json()).toEqual({ size: 60_000 });
    res = await s.app.inject({ method: 'POST', url: `${base}/uploads/${ticket.uploadId}/finish`, headers: s.auth(editor), payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ path: 'direct/big.bin', size: 60_000 });
    res = await s.app.inject({ method: 'POST', url: `${base}/uploads`, headers: s.auth(editor), payload: { path: 'direct/abort.bin', size: 1_000 } });
    const t2 = res.json();
    res = await s.app.inject({ method: 'DELETE', url: `${base}/uploads/${t2.uploadId}`, headers: s.auth(editor) });
    expect(res.json()).toEqual({ ok: true });
    expect((await get(`${base}/usage`)).json().reserved).toBe(0);
    res = await s.app.inject({ method: 'POST', url: `${base}/uploads`, headers: s.auth(editor), payload: { path: 'direct/too-big.bin', size: 10_000_000 } });
    expect([res.statusCode, res.json().code]).toEqual([413, 'quota_exceeded']);
  });

  it('the change feed (B7): what changed since a cursor, only what the caller may read, for people and agents', async () => {
    const feed = async (cursor: string, token = viewer) => {
      const res = await get(`${base}/changes?${q(cursor ? { cursor } : {})}`, token);
      expect(res.statusCode).toBe(200);
      return res.json() as { changes: Array<{ kind: string; path: string; from_path: string | null; version: number }>; cursor: string };
    };
    const start = (await feed('now')).cursor;
    expect((await feed('now')).changes).toEqual([]);
    expect((await put('feed/a.md', 'one')).statusCode).toBeLessThan(300);
    expect((await put('feed/a.md', 'two')).statusCode).toBeLessThan(300);
    expect(
      (await s.app.inject({ method: 'POST', url: `${base}/files/move`, headers: s.auth(editor), payload: { from: 'feed/a.md', to: 'feed/b.md' } })).statusCode,
    ).toBe(200);
    const seen = await feed(start);
    expect(seen.changes.map((c) => [c.kind, c.path, c.version])).toEqual([
      ['written', 'feed/a.md', 1],
      ['written', 'feed/a.md', 2],
      ['moved', 'feed/b.md', 2],
    ]);
    expect(seen.changes[2]!.from_path).toBe('feed/a.md');
    expect((await feed('now')).cursor).toBe(seen.cursor);
    // Nothing new after the cursor it gave; a page of one goes on from where it stopped.
    expect((await feed(seen.cursor)).changes).toEqual([]);
    const one = (await get(`${base}/changes?${q({ cursor: start, limit: '1' })}`, viewer)).json() as { changes: unknown[]; cursor: string };
    expect(one.changes).toHaveLength(1);
    expect((await feed(one.cursor)).changes).toHaveLength(2);

    // An agent that reads only its own folder learns nothing of the rest, and a move into its folder from
    // elsewhere shows only where the file is now.
    const { createAgent, createToken } = await import('@stoa/core/testing');
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Feed reader', files: 'on', read: 'own' });
    const agentToken = (await createToken(admin, { agent: agent.id })).token;
    const own = `agents/${agent.id}`;
    const folder = (await get(`${base}/files/stat?${q({ path: own })}`, agentToken)).statusCode;
    expect([200, 404]).toContain(folder);
    const before = (await feed('', agentToken)).changes;
    expect(before.every((c) => c.path.startsWith(`${own}/`))).toBe(true);
    expect(
      (await s.app.inject({ method: 'POST', url: `${base}/files/move`, headers: s.auth(editor), payload: { from: 'feed/b.md', to: `${own}/b.md` } }))
        .statusCode,
    ).toBe(200);
    const mine = (await feed(seen.cursor, agentToken)).changes;
    expect(mine).toEqual([expect.objectContaining({ kind: 'moved', path: `${own}/b.md`, from_path: null })]);

    // Hostile cursors and limits are refused with a stable code, never a 500.
    for (const bad of ['cursor=-1', 'cursor=abc', 'cursor=41', 'cursor=99999999999999999999', `cursor=${'A'.repeat(22)}`, 'limit=0', 'limit=100000'])
      expect(((await get(`${base}/changes?${bad}`, viewer)).json() as { code: string }).code).toBe('bad_request');
  });

  it('change feed cursors are opaque (issue 27): they say nothing of what happens in other projects, and work in their own only', async () => {
    const other = '/api/v1/projects/feed-other';
    expect((await s.app.inject({ method: 'POST', url: '/api/v1/projects', headers: s.auth(s.adminToken), payload: { name: 'feed-other' } })).statusCode).toBe(
      201,
    );
    const cursorOf = async (url: string, token: string) => ((await get(`${url}/changes?cursor=now`, token)).json() as { cursor: string }).cursor;
    const here = await cursorOf(base, viewer);
    expect(here).toMatch(/^[A-Za-z0-9_-]{22}$/);
    for (let i = 0; i < 5; i++) {
      const res = await s.app.inject({
        method: 'PUT',
        url: `${other}/files/content?${q({ path: `busy/${i}.md` })}`,
        headers: { ...s.auth(s.adminToken), 'content-type': 'application/octet-stream' },
        payload: `busy ${i}`,
      });
      expect(res.statusCode).toBeLessThan(300);
    }
    // Five changes elsewhere: this project's cursor is the very same string, and reading on from it shows nothing.
    expect(await cursorOf(base, viewer)).toBe(here);
    expect((await get(`${base}/changes?${q({ cursor: here })}`, viewer)).json()).toEqual({ changes: [], cursor: here });
    // A cursor of the other project is not one of this feed's: refused, not read as a position.
    const there = await cursorOf(other, s.adminToken);
    const res = await get(`${base}/changes?${q({ cursor: there })}`, s.adminToken);
    expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([400, 'bad_request']);
  });

  it('audit over HTTP is for admins only', async () => {
    const res = await get(`${base}/audit`, s.adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().entries.some((e: any) => e.action === 'file.upload' && e.actor.name === 'eddie')).toBe(true);
    expect((await get(`${base}/audit`, editor)).statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp('sqlite');
  });
  afterAll(() => s.close());

  it('is an OpenAPI 3.1 document at /api/v1/openapi.json listing every route of the contract, without a token', async () => {
    const res = await s.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const listed = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths))
      for (const [m, op] of Object.entries(ops)) listed.add(`${m.toUpperCase()} ${path} ${op.operationId}`);
    for (const r of allRoutes) expect(listed).toContain(`${r.method} /api/v1${r.path} ${r.id}`);
    const stat = doc.paths['/api/v1/projects/{project}/files/stat'].get;
    expect(stat.parameters.filter((p: any) => p.in !== 'header').map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['project', 'path', true],
      ['path', 'query', true],
    ]);
    expect(doc.components.schemas.Problem.properties.code.enum).toContain('quota_exceeded');
  });
});
