import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import {
  addMember,
  contextFor,
  createAgent,
  createConversation,
  createLoginCode,
  createProject,
  createToken,
  localAdminPrincipal,
  operations,
  putFile,
  redeemLoginCode,
  refusalByRole,
  removeMember,
  toolOperations,
  type Actor,
  type Operation,
} from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * Every operation of the table at every door that exposes it — HTTP (every route), MCP (every tool) and WebDAV
 * (the methods mapped to file operations) — for every kind of actor, answered as the policy says (issue 26).
 * Requests carry placeholder parameters and no body: who may act is decided before what they sent.
 */

type ActorKind = 'admin' | 'editor' | 'viewer' | 'outsider' | 'removed' | 'confined' | 'reach' | 'foreign';
const PEOPLE: ActorKind[] = ['admin', 'editor', 'viewer'];
const AGENTS: ActorKind[] = ['confined', 'reach', 'foreign'];

/** The actor as the policy sees it, for the oracle (refusalByRole): roles for people, settings for agents. */
function actorOf(k: ActorKind): Actor {
  if (k === 'admin' || k === 'editor' || k === 'viewer') return { kind: 'user', userId: k, name: k, role: k };
  const write = k === 'confined' ? 'own' : 'project';
  const read = k === 'confined' ? 'own' : 'project';
  return { kind: 'agent', agentId: k, name: k, ownerId: null, access: { enabled: true, write, read }, instructions: '', conversationId: null };
}

/**
 * Rules the core function adds on top of the declared policy, for the role named: the table's policy says who
 * may ever; these say who may here. (Viewers read conversations but may not start one.)
 */
const BEYOND_POLICY: Record<string, ActorKind[]> = { 'conversations.create': ['viewer'] };

function request(op: Operation): { method: any; url: string } {
  const path = op.route.path.replace('{project}', 'default').replace(/\{[a-zA-Z0-9_]+\}/g, 'x');
  return { method: op.route.method, url: '/api/v1' + path };
}

describe.each(testDbKinds())('every operation at every door, for every kind of actor (%s)', (kind) => {
  let s: TestApp;
  const headers = {} as Record<ActorKind, Record<string, string>>;

  beforeAll(async () => {
    s = await createTestApp(kind);
    const platform = s.t.platform;
    const admin = await s.t.admin();
    const bearer = (token: string, conversation?: string) => ({
      authorization: `Bearer ${token}`,
      ...(conversation ? { 'x-stoa-conversation': conversation } : {}),
    });
    for (const k of PEOPLE) headers[k] = bearer(await s.tokenFor(k, k as 'admin'));
    // Removed: a member who left the project. The tokens confined to it are revoked with the membership (401); what
    // they keep is their own installation-wide session, which must reach nothing of the project.
    const projectToken = await s.tokenFor('rex', 'editor');
    const rex = await platform.db.kysely.selectFrom('users').select('id').where('name', '=', 'rex').executeTakeFirstOrThrow();
    headers.removed = bearer((await redeemLoginCode(platform, await createLoginCode(platform, rex.id))).token);
    await removeMember(admin, { user: 'rex' });
    expect((await s.app.inject({ url: '/api/v1/projects/default/members', headers: bearer(projectToken) })).statusCode).toBe(401);
    // Outsider: an editor of another project.
    const root = await localAdminPrincipal(platform);
    if (root.kind !== 'user') throw new Error('the local administrator is a user');
    await createProject(platform, { kind: 'user', userId: root.userId, name: root.name, role: null, superuser: true }, { name: 'other' });
    const other = await contextFor(platform, root, { project: 'other' });
    await addMember(other, { user: 'olga', role: 'editor' });
    headers.outsider = bearer((await createToken(other, { user: 'olga' })).token);
    // Agents: confined to their own folder, with the whole project's reach, and one acting in another's conversation.
    const confined = await createAgent(admin, { name: 'Confined', files: 'on', write: 'own', read: 'own' });
    const reach = await createAgent(admin, { name: 'Reach', files: 'on', write: 'project', read: 'project' });
    const third = await createAgent(admin, { name: 'Third', files: 'on' });
    const conv = async (id: string) => (await createConversation(admin, { members: [id] })).id;
    headers.confined = bearer((await createToken(admin, { agent: confined.id })).token, await conv(confined.id));
    headers.reach = bearer((await createToken(admin, { agent: reach.id })).token, await conv(reach.id));
    headers.foreign = bearer((await createToken(admin, { agent: reach.id })).token, await conv(third.id));
    await putFile(admin, { path: 'shared/a.md', source: 'x' });
  });
  afterAll(() => s?.close());

  const projectOps = operations.filter((o) => o.scope === 'project');
  const actors: ActorKind[] = [...PEOPLE, 'outsider', 'removed', ...AGENTS];

  it.each(actors)('HTTP: every route answers %s as the policy says', async (k) => {
    // The requests go out together (one server, in process); each is checked on its own.
    const answers = await Promise.all(projectOps.map((op) => s.app.inject({ ...request(op), headers: headers[k] })));
    for (const [i, op] of projectOps.entries()) {
      const r = answers[i]!;
      const code = String(r.headers['content-type'] ?? '').includes('json') ? r.json().code : undefined;
      const what = `${op.id} as ${k}: ${r.statusCode} ${r.body.slice(0, 200)}`;
      expect(r.statusCode, what).not.toBe(401);
      if (k === 'outsider' || k === 'removed') {
        expect([403, 404], what).toContain(r.statusCode);
      } else if (refusalByRole(actorOf(k), op) || BEYOND_POLICY[op.id]?.includes(k)) {
        // The policy step comes before the conversation's: an agent never gets what only people have.
        expect(r.statusCode, what).toBe(403);
      } else if (k === 'foreign') {
        expect(code, what).toBe('not_in_conversation');
      } else {
        expect(code, what).not.toBe('not_in_conversation');
        // What the role allows is never refused for the role: a refusal here comes from the resource (an agent's folder).
        if (PEOPLE.includes(k)) expect(r.statusCode === 403 && code === 'forbidden', what).toBe(false);
      }
    }
  });

  it('HTTP: an agent confined to its folder cannot read outside it; one with the project reach can', async () => {
    for (const id of ['files.stat', 'files.download', 'files.versions']) {
      const op = projectOps.find((o) => o.id === id)!;
      const url = request(op).url.replace(/\/x(?=\/|$)/, '') + '?path=shared%2Fa.md';
      expect((await s.app.inject({ method: op.route.method as 'GET', url, headers: headers.confined })).statusCode, id).toBe(403);
      expect((await s.app.inject({ method: op.route.method as 'GET', url, headers: headers.reach })).statusCode, id).toBe(200);
    }
  });

  async function mcpCall(k: ActorKind, name: string): Promise<{ status: number; text: string }> {
    const r = await s.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...headers[k], accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
    });
    const body = r.statusCode === 200 ? r.json() : null;
    return { status: r.statusCode, text: body?.result?.content?.[0]?.text ?? body?.error?.message ?? r.body };
  }

  it.each(AGENTS)('MCP: every tool answers the %s agent as the policy says', async (k) => {
    const answers = await Promise.all(toolOperations.map((t) => mcpCall(k, t.id)));
    for (const [i, t] of toolOperations.entries()) {
      const r = answers[i]!;
      expect(r.status, `${t.id}: ${r.text}`).toBe(200);
      if (k === 'foreign') expect(r.text, t.id).toMatch(/^Refused: this agent does not take part in conversation/);
      else expect(r.text, t.id).not.toMatch(/does not take part/);
    }
  });

  it.each([...PEOPLE, 'outsider', 'removed'] as ActorKind[])('MCP: the door is for agents; %s is refused', async (k) => {
    expect([401, 403, 404]).toContain((await mcpCall(k, 'ws_list_files')).status);
  });

  it.each([...PEOPLE, 'outsider', 'removed', 'confined', 'reach'] as ActorKind[])(
    'WebDAV: PUT, MKCOL, PROPFIND and DELETE answer %s as the policy says',
    async (k) => {
      const dav = (method: string, path: string, payload?: string) =>
        s.app.inject({
          method: method as 'PUT',
          url: `/projects/default/dav/${path}`,
          headers: { ...headers[k], depth: '0' },
          ...(payload !== undefined ? { payload } : {}),
        });
      const write = await dav('PUT', `dav-${k}.md`, 'x');
      const mkcol = await dav('MKCOL', `dav-${k}`);
      await putFile(await s.t.admin(), { path: `shared/${k}.md`, source: 'x' });
      const read = await dav('PROPFIND', `shared/${k}.md`);
      const del = await dav('DELETE', `shared/${k}.md`);
      const statuses = [write, mkcol, read, del].map((r) => r.statusCode);
      if (k === 'outsider' || k === 'removed') for (const st of statuses) expect([403, 404]).toContain(st);
      else if (k === 'viewer') expect(statuses).toEqual([403, 403, 207, 403]);
      // Confined: writes only in its folder, reads only there; the shared file stays.
      else if (k === 'confined') expect(statuses).toEqual([403, 403, 403, 403]);
      // An agent with the project's reach writes anywhere but deletes nothing (its tools do not either).
      else if (k === 'reach') expect(statuses).toEqual([201, 201, 207, 403]);
      else expect(statuses).toEqual([201, 201, 207, 204]);
    },
  );
});
