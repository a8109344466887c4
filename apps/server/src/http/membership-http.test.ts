import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createLoginCode, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

const LOCK_BODY = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

/**
 * Issue 26: membership is the root of reach, sessions end, and project admins can release any lock — tried through
 * the real HTTP server and its WebDAV door, as the removed person, their agent, a viewer and an admin would.
 */
describe.each(kinds)('membership, sessions and locks (%s)', (kind) => {
  let s: TestApp;
  let n = 0;

  beforeAll(async () => {
    s = await createTestApp(kind);
  });
  afterAll(async () => s?.close());

  const put = (token: string, project: string, path: string, bytes: string) =>
    s.api('PUT', `/projects/${project}/files/content?path=${encodeURIComponent(path)}`, token, bytes, { 'content-type': 'application/octet-stream' });
  /** A member with a login session (installation-wide) and a token confined to the project. */
  const member = async (role: 'admin' | 'editor' | 'viewer') => {
    const name = `m${++n}`;
    const m = await addMember(await s.t.admin(), { user: name, role });
    const session = (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
    const confined = (await s.api('POST', '/projects/default/tokens', session, {})).body.token as string;
    return { name, userId: m.userId, session, confined };
  };
  const dav = (token: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    s.app.inject({ method: method as 'GET', url: `/dav/${path}`, headers: { ...s.auth(token), ...headers }, ...(body !== undefined ? { payload: body } : {}) });

  it('removing a member revokes their tokens, suspends their agents, closes their agent volumes and releases their locks', async () => {
    const leaver = await member('editor');
    const agent = (await s.api('POST', '/projects/default/agents', leaver.session, { name: `bot ${n}`, files: 'on' })).body;
    const agentToken = (await s.api('POST', '/projects/default/tokens', leaver.session, { agent: agent.id })).body.token as string;
    expect((await put(agentToken, 'default', `agents/${agent.id}/before.md`, 'by the agent')).status).toBe(201);
    const privateVol = (await s.api('POST', '/volumes', leaver.session, { catalog: 'user-xperts', agent: agent.id })).body.volumeId as string;
    expect((await put(leaver.session, privateVol, 'mine.md', 'private')).status).toBe(201);
    expect((await put(leaver.session, 'default', 'held.md', 'v1')).status).toBe(201);
    const lock = await dav(leaver.confined, 'LOCK', 'held.md', { timeout: 'Second-600' }, LOCK_BODY);
    expect(lock.statusCode).toBe(200);
    expect((await put(s.adminToken, 'default', 'held.md', 'v2')).body.code).toBe('locked');

    expect((await s.api('DELETE', `/projects/default/members/${leaver.name}`, s.adminToken)).status).toBeLessThan(300);

    // Their tokens: the confined one is revoked, the session reaches nothing of the project.
    expect((await s.api('GET', '/projects/default/files', leaver.confined)).status).toBe(401);
    expect((await s.api('GET', '/projects/default/files', leaver.session)).status).toBe(404);
    // Their agent is suspended: its token answers a stable code, at the API and over WebDAV.
    const refused = await s.api('GET', '/projects/default/files', agentToken);
    expect([refused.status, refused.body.code]).toEqual([403, 'agent_suspended']);
    expect((await put(agentToken, 'default', `agents/${agent.id}/after.md`, 'leak')).body.code).toBe('agent_suspended');
    expect((await dav(agentToken, 'PUT', `agents/${agent.id}/dav.md`, {}, 'leak')).statusCode).toBe(403);
    expect((await s.api('GET', `/projects/default/agents/${agent.id}`, s.adminToken)).body.suspended).toBe(true);
    // Their private-agent volume: closed, to them and to the agent.
    expect((await put(leaver.session, privateVol, 'more.md', 'out')).status).toBe(404);
    expect((await s.api('GET', `/projects/${privateVol}/files`, leaver.session)).status).toBe(404);
    // Their lock is gone: others write again.
    expect((await put(s.adminToken, 'default', 'held.md', 'v2')).status).toBe(200);

    // An admin reassigns the agent: it acts again, but only with tokens its new owner's side mints.
    const other = await member('editor');
    const r = await s.api('POST', `/projects/default/agents/${agent.id}/reassign`, s.adminToken, { owner: other.name });
    expect(r.body).toMatchObject({ ownerId: other.userId, suspended: false });
    expect((await s.api('GET', '/projects/default/files', agentToken)).status).toBe(401);
    const fresh = (await s.api('POST', '/projects/default/tokens', other.session, { agent: agent.id })).body.token as string;
    expect((await put(fresh, 'default', `agents/${agent.id}/after.md`, 'back at work')).status).toBe(201);
    // Only an admin reassigns, and only to a member.
    expect((await s.api('POST', `/projects/default/agents/${agent.id}/reassign`, other.session, { owner: other.name })).body.code).toBe('forbidden');
    expect((await s.api('POST', `/projects/default/agents/${agent.id}/reassign`, s.adminToken, { owner: leaver.name })).body.code).toBe('not_found');
  });

  it("nobody gains rights through another person's agent volume: a viewer stays a viewer, an outsider has none", async () => {
    const owner = await member('editor');
    const viewer = await member('viewer');
    const editor = await member('editor');
    const agent = (await s.api('POST', '/projects/default/agents', owner.session, { name: `private ${n}`, files: 'on' })).body;
    const opened = await s.api('POST', '/volumes', viewer.session, { catalog: 'user-xperts', agent: agent.id });
    expect([opened.status, opened.body.code]).toEqual([404, 'not_found']);
    const ed = await s.api('POST', '/volumes', editor.session, { catalog: 'user-xperts', agent: agent.id });
    expect(ed.body.access).toBe('editor');
    const own = await s.api('POST', '/volumes', owner.session, { catalog: 'user-xperts', agent: agent.id });
    expect(own.body.access).toBe('admin');
    // The agent's own files: its owner reads them while a member; once removed, no more.
    const agentToken = (await s.api('POST', '/projects/default/tokens', owner.session, { agent: agent.id })).body.token as string;
    const xperts = (await s.api('POST', '/volumes', agentToken, { catalog: 'xperts' })).body.volumeId as string;
    expect((await s.api('GET', `/projects/${xperts}/files`, owner.session)).status).toBe(200);
    await s.api('DELETE', `/projects/default/members/${owner.name}`, s.adminToken);
    expect((await s.api('GET', `/projects/${xperts}/files`, owner.session)).status).toBe(404);
  });

  it('logout revokes the session on the server; sessions expire after STOA_SESSION_HOURS', async () => {
    const m = await member('editor');
    expect((await s.api('GET', '/projects/default/files', m.session)).status).toBe(200);
    const out = await s.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie: `stoa_token=${encodeURIComponent(m.session)}` } });
    expect(out.statusCode).toBe(200);
    expect((await s.api('GET', '/projects/default/files', m.session)).status).toBe(401);
    // A token minted on purpose is no session: logging out with it leaves it working.
    expect((await s.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.auth(m.confined) })).statusCode).toBe(200);
    expect((await s.api('GET', '/projects/default/files', m.confined)).status).toBe(200);

    const later = await member('editor');
    const clock = s.t.platform.clock;
    const hours = s.t.platform.config.limits.sessionHours;
    try {
      s.t.platform.clock = () => new Date(clock().getTime() + (hours - 1) * 3600_000);
      expect((await s.api('GET', '/projects/default/files', later.session)).status).toBe(200);
      s.t.platform.clock = () => new Date(clock().getTime() + (hours + 1) * 3600_000);
      expect((await s.api('GET', '/projects/default/files', later.session)).status).toBe(401);
    } finally {
      s.t.platform.clock = clock;
    }
  });

  it('locks: time-outs are capped, a root lock needs an admin, admins release any lock (WebDAV UNLOCK and the API)', async () => {
    const ed = await member('editor');
    const viewer = await member('viewer');
    const admin = await member('admin');
    const cap = s.t.platform.config.limits.lockMaxSeconds;
    // An editor may not lock the whole project; an admin may, and is capped too.
    expect((await dav(ed.confined, 'LOCK', '', { depth: 'infinity', timeout: 'Infinite' }, LOCK_BODY)).statusCode).toBe(403);
    const root = await dav(admin.confined, 'LOCK', '', { depth: 'infinity', timeout: 'Infinite' }, LOCK_BODY);
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain(`Second-${cap}`);
    expect((await dav(admin.confined, 'UNLOCK', '', { 'lock-token': root.headers['lock-token'] as string })).statusCode).toBe(204);

    await put(ed.confined, 'default', 'locks/a.md', 'a');
    const l = await dav(ed.confined, 'LOCK', 'locks/a.md', { timeout: 'Infinite' }, LOCK_BODY);
    expect(l.body).toContain(`Second-${cap}`);
    const token = l.headers['lock-token'] as string;
    // Someone else without admin rights may not release it, at either door; an admin may, over WebDAV.
    expect((await dav(viewer.confined, 'UNLOCK', 'locks/a.md', { 'lock-token': token })).statusCode).toBe(403);
    expect((await dav(admin.confined, 'UNLOCK', 'locks/a.md', { 'lock-token': token })).statusCode).toBe(204);
    expect((await put(admin.confined, 'default', 'locks/a.md', 'a2')).status).toBe(200);

    // The lock list names holders; a viewer sees, only the holder or an admin releases; the release is audited.
    const again = (await dav(ed.confined, 'LOCK', 'locks/a.md', {}, LOCK_BODY)).headers['lock-token'] as string;
    const listed = await s.api('GET', '/projects/default/locks', viewer.confined);
    expect(listed.body).toEqual([expect.objectContaining({ path: 'locks/a.md', holder: { kind: 'user', id: ed.userId, name: ed.name }, mine: false })]);
    const bare = again.replace(/^<|>$/g, '');
    expect((await s.api('DELETE', `/projects/default/locks?token=${encodeURIComponent(bare)}`, viewer.confined)).body.code).toBe('forbidden');
    expect((await s.api('DELETE', `/projects/default/locks?token=${encodeURIComponent(bare)}`, s.adminToken)).body).toMatchObject({ path: 'locks/a.md' });
    expect((await s.api('GET', '/projects/default/locks', viewer.confined)).body).toEqual([]);
    expect((await s.api('DELETE', `/projects/default/locks?token=${encodeURIComponent(bare)}`, s.adminToken)).body.code).toBe('not_found');
    const audit = await s.api('GET', '/projects/default/audit', s.adminToken);
    expect(JSON.stringify(audit.body)).toContain('lock.release');
  });
});
