import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, contextFor, createLoginCode, createProjectFor, localAdminPrincipal, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/**
 * Which volumes a caller reaches from a project (R1), the cap on a project's knowledge bases and skill packages,
 * and what becomes of an agent's volume once the agent is deleted (decision 0016) — over HTTP, as every client sees it.
 */
describe.each(kinds)('listing and deleting volumes over HTTP (R1, %s)', (kind) => {
  let s: TestApp;
  let n = 0;

  beforeAll(async () => {
    s = await createTestApp(kind, { volumesPerProject: 3 });
  });
  afterAll(async () => s?.close());

  const api = (method: string, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) => s.api(method, url, token, body, headers);
  const put = (token: string, volume: string, path: string, bytes: string) =>
    api('PUT', `/projects/${volume}/files/content?path=${encodeURIComponent(path)}`, token, bytes, { 'content-type': 'application/octet-stream' });

  /** A fresh project with an admin, an editor, a viewer (login sessions: installation-wide tokens) and an outsider. */
  async function team() {
    const name = `team-${++n}`;
    const root = await localAdminPrincipal(s.t.platform);
    await createProjectFor(s.t.platform, root, { name });
    const admin = await contextFor(s.t.platform, root, { project: name });
    const login = async (role: 'admin' | 'editor' | 'viewer') => {
      const m = await addMember(admin, { user: `${name}-${role}-${++n}`, role });
      return (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
    };
    const outsiderProject = `elsewhere-${++n}`;
    await createProjectFor(s.t.platform, root, { name: outsiderProject });
    const m = await addMember(await contextFor(s.t.platform, root, { project: outsiderProject }), { user: `outsider-${++n}`, role: 'admin' });
    const outsider = (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
    return { name, admin: await login('admin'), editor: await login('editor'), viewer: await login('viewer'), outsider };
  }
  /** An agent made by `owner`, with a token of its own and its own volume opened (so it exists). */
  async function agentOf(project: string, owner: string, settings: Record<string, string> = {}) {
    const agent = (await api('POST', `/projects/${project}/agents`, owner, { name: `agent-${++n}`, files: 'on', ...settings })).body;
    const token = (await api('POST', `/projects/${project}/tokens`, owner, { agent: agent.id })).body.token as string;
    const volume = (await api('POST', '/volumes', token, { catalog: 'xperts' })).body.volumeId as string;
    return { id: agent.id as string, token, volume };
  }
  const listed = async (project: string, token: string) => {
    const r = await api('GET', `/projects/${project}/volumes`, token);
    expect(r.status).toBe(200);
    return r.body as Array<{ volumeId: string; catalog: string; name: string; access: string; agentDeleted: boolean; usedBytes: number }>;
  };
  const ids = async (project: string, token: string) => (await listed(project, token)).map((v) => v.volumeId).sort();

  it('lists, for each role and for an agent, exactly the volumes it may open — never anyone else’s', async () => {
    const p = await team();
    const kb = (await api('POST', '/volumes', p.editor, { catalog: 'knowledges', project: p.name, name: 'Handbook' })).body.volumeId;
    const skill = (await api('POST', '/volumes', p.editor, { catalog: 'skills', project: p.name, name: 'Triage' })).body.volumeId;
    expect((await put(p.editor, kb, 'faq.md', 'twelve bytes')).status).toBe(201);
    const mine = (await api('POST', '/volumes', p.viewer, { catalog: 'users' })).body.volumeId;
    const editorsOwn = (await api('POST', '/volumes', p.editor, { catalog: 'users' })).body.volumeId;
    const bot = await agentOf(p.name, p.editor);
    const confined = await agentOf(p.name, p.admin, { read: 'own' });
    // A viewer gains no rights through another person's agent (issue 26): no private volume of it to make.
    expect((await api('POST', '/volumes', p.viewer, { catalog: 'user-xperts', agent: bot.id })).status).toBe(404);

    // The viewer: the project's knowledge bases and skill packages and their own files.
    const viewer = await listed(p.name, p.viewer);
    expect(viewer.map((v) => [v.catalog, v.volumeId, v.access])).toEqual([
      ['users', mine, 'admin'],
      ['knowledges', kb, 'viewer'],
      ['skills', skill, 'viewer'],
    ]);
    expect(viewer.find((v) => v.volumeId === kb)).toMatchObject({ name: 'Handbook', usedBytes: 12, agentDeleted: false, projectId: expect.any(String) });
    // The editor owns `bot`, so reads its volume; not the confined agent's (an admin's agent), nor anyone's own files.
    expect(await ids(p.name, p.editor)).toEqual([editorsOwn, kb, skill, bot.volume].sort());
    // The admin reads every agent's volume of the project, and never a person's own or private-agent files.
    expect(await ids(p.name, p.admin)).toEqual([kb, skill, bot.volume, confined.volume].sort());
    // An agent: what its settings let it read, and its own volume; the confined one only its own.
    expect(await ids(p.name, bot.token)).toEqual([kb, skill, bot.volume].sort());
    expect(await ids(p.name, confined.token)).toEqual([confined.volume]);
    // Someone outside the project learns nothing: the project's not_found; a volume lists nothing.
    const out = await api('GET', `/projects/${p.name}/volumes`, p.outsider);
    expect([out.status, out.body.code]).toEqual([404, 'not_found']);
    expect((await api('GET', `/projects/${kb}/volumes`, p.editor)).status).toBe(403);
    expect((await listed(p.name, s.adminToken)).map((v) => v.volumeId)).not.toContain(mine);
    // Filtered by kind.
    expect((await api('GET', `/projects/${p.name}/volumes?catalog=skills`, p.viewer)).body.map((v: any) => v.volumeId)).toEqual([skill]);
    expect((await api('GET', `/projects/${p.name}/volumes?catalog=projects`, p.viewer)).status).toBe(400);

    // GET /volumes/{id} answers the scope to whoever reaches it, and the ghost's not_found to anyone else.
    expect((await api('GET', `/volumes/${kb}`, p.viewer)).body).toMatchObject({ catalog: 'knowledges', volumeId: kb, name: 'Handbook', access: 'viewer' });
    for (const [token, id] of [
      [p.outsider, kb],
      [p.editor, mine],
      [p.viewer, bot.volume],
      [confined.token, kb],
    ] as const) {
      const r = await api('GET', `/volumes/${id}`, token);
      const ghost = await api('GET', '/volumes/vol_noSuchVolume00', token);
      expect([r.status, r.body.detail]).toEqual([404, ghost.body.detail]);
    }
    for (const bad of ['default', 'vol_', `vol_${'x'.repeat(200)}`, 'vol_%00']) expect((await api('GET', `/volumes/${bad}`, p.admin)).status).toBeLessThan(500);
  });

  it('caps the knowledge bases and skill packages of a project (STOA_MAX_VOLUMES_PER_PROJECT)', async () => {
    const p = await team();
    for (const [catalog, name] of [
      ['knowledges', 'one'],
      ['skills', 'two'],
      ['knowledges', 'three'],
    ])
      expect((await api('POST', '/volumes', p.editor, { catalog, project: p.name, name })).status).toBe(200);
    const over = await api('POST', '/volumes', p.editor, { catalog: 'skills', project: p.name, name: 'four' });
    expect([over.status, over.body.code, over.body.limit]).toEqual([413, 'too_large', 3]);
    // Opening one that exists is not a creation; other projects, agents' and people's volumes do not count.
    expect((await api('POST', '/volumes', p.viewer, { catalog: 'knowledges', project: p.name, name: 'one' })).status).toBe(200);
    expect((await api('POST', '/volumes', p.editor, { catalog: 'users' })).status).toBe(200);
    expect((await ids(p.name, p.editor)).length).toBe(4);
    // Deleting one (a project admin may; an editor may not) makes room again.
    const three = (await listed(p.name, p.admin)).find((v) => v.name === 'three')!.volumeId;
    expect((await api('DELETE', `/volumes/${three}`, p.editor)).body.code).toBe('forbidden');
    expect((await api('DELETE', `/volumes/${three}`, p.outsider)).status).toBe(404);
    expect((await api('DELETE', `/volumes/${three}`, p.admin)).body).toEqual({ volumeId: three, deleted: true });
    expect((await api('GET', `/projects/${three}/files`, p.admin)).status).toBe(404);
    expect((await api('POST', '/volumes', p.editor, { catalog: 'skills', project: p.name, name: 'four' })).status).toBe(200);
  });

  it("an agent's volume after the agent is deleted: read-only for its owner and the project's admins, who may delete it (decision 0016)", async () => {
    const p = await team();
    const bot = await agentOf(p.name, p.editor);
    expect((await put(bot.token, bot.volume, 'report.md', 'the final report')).status).toBe(201);
    const privateVol = (await api('POST', '/volumes', p.admin, { catalog: 'user-xperts', agent: bot.id })).body.volumeId;
    // While the agent works there, nobody deletes its volume.
    expect((await api('DELETE', `/volumes/${bot.volume}`, p.admin)).body.code).toBe('forbidden');

    expect((await api('DELETE', `/projects/${p.name}/agents/${bot.id}`, p.editor)).status).toBeLessThan(300);
    for (const token of [p.admin, p.editor]) {
      const v = (await listed(p.name, token)).find((x) => x.volumeId === bot.volume);
      expect(v).toMatchObject({ catalog: 'xperts', access: 'viewer', agentDeleted: true, usedBytes: 16 });
      const read = await s.app.inject({ url: `/api/v1/projects/${bot.volume}/files/content?path=report.md&redirect=false`, headers: s.auth(token) });
      expect(read.body).toBe('the final report');
      expect((await put(token, bot.volume, 'more.md', 'x')).status).toBe(403);
    }
    expect((await listed(p.name, p.admin)).find((x) => x.volumeId === privateVol)).toMatchObject({ agentDeleted: true, access: 'viewer' });
    // Nobody else, and not the agent's old token.
    expect(await ids(p.name, p.viewer)).not.toContain(bot.volume);
    expect((await api('GET', `/projects/${bot.volume}/files`, p.viewer)).status).toBe(404);
    expect((await api('GET', `/projects/${bot.volume}/files`, bot.token)).status).toBe(401);
    expect((await api('DELETE', `/volumes/${bot.volume}`, p.viewer)).status).toBe(404);

    // Its owner deletes it as a whole: gone at every door, its rows removed, recorded in the project's audit log.
    expect((await api('DELETE', `/volumes/${bot.volume}`, p.editor)).body).toEqual({ volumeId: bot.volume, deleted: true });
    expect((await api('GET', `/projects/${bot.volume}/files`, p.admin)).status).toBe(404);
    expect((await api('DELETE', `/volumes/${bot.volume}`, p.admin)).status).toBe(404);
    expect(await ids(p.name, p.admin)).not.toContain(bot.volume);
    const left = await s.t.platform.db.kysely.selectFrom('file_versions').select('id').where('project_id', '=', bot.volume).execute();
    expect(left).toEqual([]);
    const audit = await api('GET', `/projects/${p.name}/audit?action=volume.delete`, p.admin);
    expect(audit.body.entries.map((e: any) => [e.details.catalog, e.details.volumeId, e.details.agent])).toEqual([['xperts', bot.volume, bot.id]]);
    // The person deletes their private volume with the deleted agent too.
    expect((await api('DELETE', `/volumes/${privateVol}`, p.admin)).body).toMatchObject({ deleted: true });
  });
});
