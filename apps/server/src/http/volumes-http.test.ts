import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createAgent, createConversation, createLoginCode, createToken, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(kinds)('volumes beyond projects over HTTP, WebDAV and MCP (R1–R3, %s)', (kind) => {
  let s: TestApp;
  let n = 0;

  beforeAll(async () => {
    s = await createTestApp(kind, { quotaBytes: 1000, agentWriteBytes: 100 });
  });
  afterAll(async () => s?.close());

  const api = (method: string, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) => s.api(method, url, token, body, headers);
  const put = (token: string, volume: string, path: string, bytes: string, query = '') =>
    api('PUT', `/projects/${volume}/files/content?path=${encodeURIComponent(path)}${query}`, token, bytes, { 'content-type': 'application/octet-stream' });
  /** A member of the default project with an installation-wide token (a login session's), as a person's own volume needs. */
  const person = async (role: 'admin' | 'editor' | 'viewer' = 'editor') => {
    const m = await addMember(await s.t.admin(), { user: `http-${++n}`, role });
    return (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
  };

  it("a person's own volume: created on first use, theirs alone at every door, with its own quota and audit", async () => {
    const alice = await person();
    const bob = await person();
    const open = await api('POST', '/volumes', alice, { catalog: 'users' });
    expect(open.status).toBe(200);
    const vol = open.body.volumeId as string;
    expect(open.body).toMatchObject({ catalog: 'users', scopeId: open.body.userId, rootId: null, access: 'admin', actor: { kind: 'user' } });

    const w = await put(alice, vol, 'notes/plan.md', 'quetzal plan of alice', `&metadata=${encodeURIComponent('{"job":"7"}')}`);
    expect(w.status).toBe(201);
    expect(w.body.file).toMatchObject({ path: 'notes/plan.md', metadata: { job: '7' } });
    expect((await api('GET', `/projects/${vol}/files/stat?path=notes/plan.md`, alice)).body.metadata).toEqual({ job: '7' });
    const resolved = await api('GET', `/projects/${vol}/files/resolve?path=notes/plan.md`, alice);
    expect(resolved.body.file.metadata).toEqual({ job: '7' });
    expect((await s.app.inject({ url: resolved.body.url })).body).toBe('quetzal plan of alice');
    // Search runs per volume: alice finds it in hers, nobody finds it in the project.
    expect((await api('GET', `/projects/${vol}/search?q=quetzal`, alice)).body.map((h: any) => h.path)).toEqual(['notes/plan.md']);
    expect((await api('GET', `/projects/default/search?q=quetzal`, s.adminToken)).body).toEqual([]);

    // Someone else: not_found everywhere — files, search, audit, WebDAV — exactly like a volume that does not exist.
    for (const url of [
      `/projects/${vol}/files`,
      `/projects/${vol}/search?q=quetzal`,
      `/projects/${vol}/audit`,
      `/projects/${vol}/files/stat?path=notes/plan.md`,
    ]) {
      const r = await api('GET', url, bob);
      const ghost = await api('GET', url.replace(vol, 'vol_noSuchVolume00'), bob);
      expect([r.status, r.body.code]).toEqual([404, 'not_found']);
      expect(r.body.detail).toBe(ghost.body.detail);
    }
    expect((await put(bob, vol, 'x.txt', 'x')).status).toBe(404);
    for (const token of [alice, bob]) {
      const dav = await s.app.inject({ method: 'PROPFIND' as 'GET', url: `/projects/${vol}/dav/`, headers: { ...s.auth(token), depth: '1' } });
      expect(dav.statusCode).toBe(token === alice ? 207 : 404);
      if (token === alice) expect(dav.body).toContain('notes');
    }
    // The installation administrator is nobody's person: not_found too; and no project list shows a volume.
    expect((await api('GET', `/projects/${vol}/files`, s.adminToken)).status).toBe(404);
    for (const token of [alice, s.adminToken]) expect((await api('GET', '/projects', token)).body.map((p: any) => p.id)).not.toContain(vol);

    // Its own quota (1000 bytes), its own audit log.
    expect((await put(alice, vol, 'big.bin', 'x'.repeat(1200))).body.code).toBe('quota_exceeded');
    const audit = await api('GET', `/projects/${vol}/audit`, alice);
    expect(audit.body.entries.map((e: any) => [e.action, e.path])).toEqual([
      ['file.upload', 'notes/plan.md'],
      ['volume.create', null],
    ]);
    // Every token of a person opens their own volume, one confined to a project too (issue 29) — never alice's.
    const confined = await api('POST', '/volumes', await s.tokenFor(`confined-${++n}`, 'editor'), { catalog: 'users' });
    expect(confined.status).toBe(200);
    expect(confined.body.volumeId).not.toBe(vol);
    // A volume has no members or tokens of its own.
    expect((await api('POST', `/projects/${vol}/members`, alice, { user: 'someone', role: 'admin' })).status).toBe(403);
    expect((await api('POST', `/projects/${vol}/tokens`, alice, {})).status).toBe(403);
  });

  it("an agent's own volume through the tool route and /mcp: anywhere in it, within its limits", async () => {
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: `vol-agent-${++n}`, files: 'on' });
    const conv = await createConversation(admin, { members: [agent.id] });
    const tok = (await createToken(admin, { agent: agent.id })).token;
    const open = await api('POST', '/volumes', tok, { catalog: 'xperts' });
    expect(open.body).toMatchObject({ catalog: 'xperts', scopeId: agent.id, xpertId: agent.id, access: 'write' });
    const vol = open.body.volumeId;
    const call = (name: string, args: unknown) =>
      api('POST', `/projects/${vol}/tools/${name}/call`, tok, { arguments: args }, { 'x-stoa-conversation': conv.id });
    const w = await call('ws_write_file', { path: 'out/a.md', content: 'hello' });
    expect(w.body).toMatchObject({ refused: false, path: 'out/a.md', version: 1 });
    // The agent's write limit (100 bytes here) holds in its own volume too.
    expect((await put(tok, vol, 'big.txt', 'y'.repeat(150), '')).body.code).toBe('too_large');
    const mcp = await s.app.inject({
      method: 'POST',
      url: `/mcp?volume=${vol}&conversation=${conv.id}`,
      headers: { ...s.auth(tok), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ws_read_file', arguments: { path: 'out/a.md' } } },
    });
    expect(mcp.statusCode).toBe(200);
    expect(mcp.body).toContain('hello');
    for (const bad of ['vol_noSuchVolume00', 'vol_%00', `vol_${'x'.repeat(400)}`]) {
      const r = await s.app.inject({
        method: 'POST',
        url: `/mcp?volume=${bad}`,
        headers: { ...s.auth(tok), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      });
      expect([bad.slice(0, 20), r.statusCode >= 400 && r.statusCode < 500]).toEqual([bad.slice(0, 20), true]);
    }
    // Its calls there are in its conversation's trace, with the volume they worked in.
    const trace = await api('GET', `/projects/default/conversations/${conv.id}/trace`, s.adminToken);
    expect(trace.body.entries).toContainEqual(expect.objectContaining({ tool: 'ws_write_file', path: 'out/a.md', volume: vol }));
    // Another agent's token reaches neither its volume nor its files.
    const other = await createAgent(admin, { name: `other-${n}`, files: 'on' });
    const otherTok = (await createToken(admin, { agent: other.id })).token;
    expect((await api('POST', '/volumes', otherTok, { catalog: 'xperts', agent: agent.id })).status).toBe(404);
    expect((await api('GET', `/projects/${vol}/files`, otherTok)).status).toBe(404);
  });

  it('knowledge bases and skills, by name in their project, with its roles', async () => {
    const editor = await person('editor');
    const viewer = await person('viewer');
    const kb = await api('POST', '/volumes', editor, { catalog: 'knowledges', project: 'default', name: 'Support' });
    expect(kb.body).toMatchObject({ catalog: 'knowledges', name: 'Support', projectName: 'default', knowledgeId: kb.body.volumeId, access: 'editor' });
    expect((await put(editor, kb.body.volumeId, 'faq.md', 'answers')).status).toBe(201);
    const seen = await api('POST', '/volumes', viewer, { catalog: 'knowledges', project: 'default', name: 'Support' });
    expect(seen.body).toMatchObject({ volumeId: kb.body.volumeId, access: 'viewer' });
    expect((await put(viewer, kb.body.volumeId, 'x.md', 'no')).status).toBe(403);
    expect((await api('POST', '/volumes', viewer, { catalog: 'skills', project: 'default', name: 'New' })).status).toBe(404);
    // The project lists them for its members; a volume lists nothing.
    const listed = await api('GET', '/projects/default/volumes?catalog=knowledges', viewer);
    expect(listed.body).toContainEqual(expect.objectContaining({ volumeId: kb.body.volumeId, catalog: 'knowledges', name: 'Support' }));
    expect((await api('GET', '/projects/default/volumes?catalog=skills', viewer)).body.map((v: any) => v.name)).not.toContain('Support');
    expect((await api('GET', `/projects/${kb.body.volumeId}/volumes`, editor)).status).toBe(403);

    // Understanding runs per volume: the knowledge base's chunks are searched there, not in the project.
    const kbId = kb.body.volumeId;
    expect((await put(editor, kbId, 'guide.md', '# Returns\n\nPelicans are returned within fourteen days.')).status).toBe(201);
    expect((await api('POST', `/projects/${kbId}/docs/understand`, editor, { path: 'guide.md' })).status).toBe(200);
    for (;;) {
      const st = await api('GET', `/projects/${kbId}/docs/status?path=guide.md`, viewer);
      expect(st.status).toBe(200);
      if (st.body.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const hits = await api('GET', `/projects/${kbId}/docs/search?q=pelicans`, viewer);
    expect(hits.body.map((h: any) => h.path)).toEqual(['guide.md']);
    expect((await api('GET', '/projects/default/docs/search?q=pelicans', s.adminToken)).body).toEqual([]);
  });

  it('hostile input gets a 4xx with a stable code, never a 500', async () => {
    const alice = await person();
    const vol = (await api('POST', '/volumes', alice, { catalog: 'users' })).body.volumeId;
    const cases: Array<[unknown, number, string]> = [
      [{ catalog: 'nope' }, 400, 'bad_request'],
      [{}, 400, 'bad_request'],
      [{ catalog: 'xperts' }, 400, 'bad_request'],
      [{ catalog: 'user-xperts', agent: 'agt_missing1' }, 404, 'not_found'],
      [{ catalog: 'xperts', agent: 'x'.repeat(500) }, 400, 'bad_request'],
      [{ catalog: 'knowledges', project: 'default' }, 400, 'bad_request'],
      [{ catalog: 'knowledges', project: 'default', name: '../../etc' }, 400, 'bad_request'],
      [{ catalog: 'skills', project: 'no-such-project', name: 'x' }, 404, 'not_found'],
      [{ catalog: 'projects', project: vol }, 404, 'not_found'],
      [{ catalog: 'users', project: 42 }, 400, 'bad_request'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api('POST', '/volumes', alice, body);
      expect([JSON.stringify(body), r.status, r.body.code]).toEqual([JSON.stringify(body), status, code]);
    }
    for (const m of ['not json', '[1]', '{"a":1}', '{"bad key":"v"}', `{"a":"${'x'.repeat(5000)}"}`]) {
      const r = await put(alice, vol, 'm.txt', 'x', `&metadata=${encodeURIComponent(m)}`);
      expect([m.slice(0, 20), r.status, r.body.code]).toEqual([m.slice(0, 20), 400, 'bad_request']);
    }
    for (const [path, type] of [
      ['a.png', 'text/html'],
      ['page', 'text/html'],
      ['d', 'image/svg+xml'],
    ]) {
      const r = await put(alice, vol, path!, 'x', `&type=${encodeURIComponent(type!)}`);
      expect([path, r.status, r.body.code]).toEqual([path, 400, 'bad_request']);
    }
    const typed = await put(alice, vol, 'export', 'a,b\n1,2\n', `&type=${encodeURIComponent('text/csv')}`);
    expect([typed.status, typed.body.file.type]).toEqual([201, 'text/csv']);
    for (const id of ['vol_', 'vol_%00', 'vol_..', `vol_${'z'.repeat(300)}`]) {
      const r = await api('GET', `/projects/${id}/files`, alice);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect((await api('POST', '/volumes', 'stoa_not_a_token', { catalog: 'users' })).status).toBe(401);
  });
});
