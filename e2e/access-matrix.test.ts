import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { memoryRoutes, projectRoutes, wikiRoutes, type RouteDef } from '@stoa/contract';
import {
  addMember,
  authenticate,
  bootstrap,
  contextFor,
  createAgent,
  createConversation,
  createProjectFor,
  createToken,
  newToken,
  putFile,
  putPage,
  revokeToken,
  setMemory,
} from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { StoaClient } from '@stoa/sdk';
import { buildApp } from '../apps/server/src/app.js';
import { runStoa } from './helpers/run-stoa.js';
import { ACTORS, AGENT_SETTINGS, AGENTS, MATRIX, mayKnow, SECRETS, type ActorName, type Expect, type ResourceName } from './access-matrix-data.js';

/**
 * The access matrix of e2e/access-matrix-data.ts, run through every door (HTTP, SDK, MCP, WebDAV, CLI remote)
 * against one real server, plus the side channels: search, listings, wiki backlinks, the audit log and error
 * messages. A leak is any planted secret in a reply to an actor the model does not let read it.
 */

let t: TestPlatform;
let app: FastifyInstance;
let url: string;
const tokens = {} as Record<ActorName, string | undefined>;
const agentIds = {} as Record<string, string>;
let otherProjectTokenId = '';
let channelId = '';
const mcpClients: Client[] = [];

const status: Record<Expect, number[]> = { ok: [200, 201, 204, 207], forbidden: [403], not_found: [404], unauthorized: [401] };

async function seed(): Promise<void> {
  t = await createTestPlatform('sqlite');
  // Every wrong token of the matrix comes from this one address; the throttle is checked on its own at the end.
  t.platform.config.auth = { failures: 1_000_000, windowSeconds: 60 };
  tokens.installAdmin = newToken();
  t.platform.config.adminToken = tokens.installAdmin;
  await bootstrap(t.platform);
  const admin = await t.admin();
  for (const [name, role] of [
    ['pat', 'admin'],
    ['ed', 'editor'],
    ['vi', 'viewer'],
    ['carol', 'viewer'],
  ] as const)
    await addMember(admin, { user: name, role });
  tokens.projectAdmin = (await createToken(admin, { user: 'pat' })).token;
  tokens.editor = (await createToken(admin, { user: 'ed' })).token;
  tokens.viewer = (await createToken(admin, { user: 'vi' })).token;
  const revoked = await createToken(admin, { user: 'vi' });
  await revokeToken(admin, { id: revoked.id });
  tokens.revoked = revoked.token;
  tokens.anonymous = undefined;
  const ed = await contextFor(t.platform, await authenticate(t.platform, tokens.editor), {});
  for (const name of AGENTS) {
    const a = await createAgent(ed, { name, ...AGENT_SETTINGS[name]! });
    agentIds[name] = a.id;
    tokens[name] = (await createToken(ed, { agent: a.id })).token;
  }
  // A second project with its own member and a secret file; one of its tokens is the revoke target.
  const root = await authenticate(t.platform, tokens.installAdmin);
  await createProjectFor(t.platform, root, { name: 'other' });
  const otherAdmin = await contextFor(t.platform, root, { project: 'other' });
  await addMember(otherAdmin, { user: 'olga', role: 'admin' });
  tokens.otherProject = (await createToken(otherAdmin, { user: 'olga' })).token;
  otherProjectTokenId = (await createToken(otherAdmin, { user: 'olga', name: 'victim' })).id;
  await putFile(otherAdmin, { path: 'p2/secret.md', source: SECRETS.otherProjectFile! });

  await putFile(admin, { path: 'shared/plan.md', source: SECRETS.rootFile! });
  for (const name of AGENTS) await putFile(admin, { path: `agents/${agentIds[name]}/note.md`, source: `note of ${name}` });
  await putFile(admin, { path: `agents/${agentIds.agentOff}/secret.md`, source: SECRETS.otherAgentFolder! });
  const channel = await createConversation(ed, { channel: 'team', members: [agentIds.agentOwnRead!] });
  channelId = channel.id;
  await putPage(admin, { path: 'handbook', text: '# Handbook\n\nzebracorn-free workspace text', title: 'Handbook' });
  await putPage(ed, { path: 'team-notes', text: `${SECRETS.channelPage} links [[handbook]]`, title: 'Team notes', channel: channel.id });
  await setMemory(admin, { file: 'AGENTS.md' }, 'house rules');
  await setMemory(admin, { file: 'SOUL.md', agent: agentIds.agentOwnRead }, SECRETS.soul!);
  await setMemory(ed, { file: 'MEMORY.md', conversation: channel.id }, SECRETS.memoryMd!);
}

beforeAll(async () => {
  await seed();
  app = await buildApp({ platform: t.platform, webRoot: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await Promise.all(mcpClients.map((c) => c.close().catch(() => undefined)));
  await app?.close();
  await t?.cleanup();
});

/** The folder and file each resource/operation touches, for one actor (writes and deletes use their own files). */
function filePath(actor: ActorName, resource: ResourceName, op: string): string {
  const folder =
    resource === 'rootFile'
      ? 'shared'
      : resource === 'ownFolder'
        ? `agents/${agentIds[AGENTS.includes(actor) ? actor : 'agentOwnRead']}`
        : `agents/${agentIds.agentOff}`;
  if (op === 'read') return resource === 'otherAgentFolder' ? `${folder}/secret.md` : resource === 'rootFile' ? `${folder}/plan.md` : `${folder}/note.md`;
  return `${folder}/${op}-${actor}.md`;
}

/** A2: an agent with file access writes only its own folder unless it both writes and reads the whole project. */
function writesOwnFolder(actor: ActorName): boolean {
  const s = AGENT_SETTINGS[actor];
  return !!s && s.files === 'on' && (s.write === 'own' || s.read === 'own');
}

interface Reply {
  status: number;
  code?: string;
  text: string;
}

async function http(actor: ActorName, method: string, path: string, body?: unknown, raw?: string): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (tokens[actor]) headers.authorization = `Bearer ${tokens[actor]}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (raw !== undefined) headers['content-type'] = 'application/octet-stream';
  const res = await fetch(`${url}/api/v1${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code, text };
}

function expectReply(r: Reply, expected: Expect, label: string, secret?: string): void {
  expect(status[expected], `${label}: got ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
  if (expected !== 'ok') {
    expect(r.code, label).toBe(expected);
    if (secret) expect(r.text, `${label} leaks`).not.toContain(secret);
  }
}

const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

/** One matrix cell through HTTP: the request each resource/operation maps to. */
async function httpCell(actor: ActorName, cell: string): Promise<Reply> {
  const [resource, op] = cell.split('.') as [ResourceName, string];
  const p = '/projects/default';
  switch (resource) {
    case 'rootFile':
    case 'ownFolder':
    case 'otherAgentFolder': {
      const path = filePath(actor, resource, op);
      if (op === 'read') return http(actor, 'GET', `${p}/files/content?${q({ path })}`);
      if (op === 'write') return http(actor, 'PUT', `${p}/files/content?${q({ path })}`, undefined, `written by ${actor}`);
      await putFile(await t.admin(), { path, source: 'to delete' });
      return http(actor, 'DELETE', `${p}/files?${q({ path })}`);
    }
    case 'workspacePage':
      return op === 'read'
        ? http(actor, 'GET', `${p}/wiki/page?${q({ path: 'handbook' })}`)
        : http(actor, 'PUT', `${p}/wiki/page`, { path: `pages/by-${actor}`, text: 'hello' });
    case 'channelPage':
      return http(actor, 'GET', `${p}/wiki/page?${q({ path: 'team-notes' })}`);
    case 'soul':
    case 'agentsMd':
    case 'memoryMd': {
      const ref: Record<string, string> =
        resource === 'soul'
          ? { file: 'SOUL.md', agent: agentIds.agentOwnRead! }
          : resource === 'agentsMd'
            ? { file: 'AGENTS.md' }
            : { file: 'MEMORY.md', conversation: channelId };
      if (op === 'read') return http(actor, 'GET', `${p}/memory/file?${q(ref)}`);
      return http(actor, 'POST', `${p}/memory/append`, { ...ref, text: `\nline by ${actor}` });
    }
    case 'otherProjectFile':
      return http(actor, 'GET', `/projects/other/files/content?${q({ path: 'p2/secret.md' })}`);
    case 'tokens':
      if (op === 'list') return http(actor, 'GET', `${p}/tokens`);
      if (op === 'write') return http(actor, 'POST', `${p}/tokens`, { name: `own of ${actor}` });
      if (op === 'mintForOther') return http(actor, 'POST', `${p}/tokens`, { user: 'carol' });
      return http(actor, 'DELETE', `${p}/tokens/${otherProjectTokenId}`);
    case 'members':
      return op === 'list' ? http(actor, 'GET', `${p}/members`) : http(actor, 'POST', `${p}/members`, { user: `guest-${actor}`, role: 'viewer' });
    case 'audit':
      return http(actor, 'GET', `${p}/audit`);
  }
}

const cells = Object.entries(MATRIX).flatMap(([cell, row]) =>
  ACTORS.filter((a) => row[a] !== undefined).map((actor) => ({ cell, actor, expected: row[actor]! })),
);
/** Cells whose effect others depend on run one after another, after the rest (revoking, minting). */
const lastCells = new Set(['tokens.revokeOtherProject']);

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('the access matrix', { shuffle: false }, () => {
  it('HTTP: every cell answers as the model says, and no refusal leaks what it guards', async () => {
    const failures: string[] = [];
    const run = async ({ cell, actor, expected }: (typeof cells)[number]) => {
      const r = await httpCell(actor, cell);
      const resource = cell.split('.')[0] as ResourceName;
      try {
        expectReply(r, expected, `${actor} ${cell}`, SECRETS[resource]);
        if (expected === 'ok' && cell.endsWith('.read') && SECRETS[resource]) expect(r.text).toContain(SECRETS[resource]);
      } catch (e) {
        failures.push((e as Error).message.split('\n')[0]!);
      }
    };
    const first = cells.filter((c) => !lastCells.has(c.cell));
    for (let i = 0; i < first.length; i += 16) await Promise.all(first.slice(i, i + 16).map(run));
    // The installation admin revokes last, after everyone else was refused.
    for (const c of cells.filter((x) => lastCells.has(x.cell)).sort((a) => (a.actor === 'installAdmin' ? 1 : -1))) await run(c);
    expect(failures).toEqual([]);
  }, 120_000);

  it('SDK: the JSON cells answer the same through the typed client', async () => {
    const failures: string[] = [];
    const jsonCells: Array<[string, RouteDef, Record<string, unknown>]> = [
      ['workspacePage.read', wikiRoutes.get, { project: 'default', path: 'handbook' }],
      ['channelPage.read', wikiRoutes.get, { project: 'default', path: 'team-notes' }],
      ['memoryMd.read', memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: channelId }],
      ['soul.read', memoryRoutes.get, { project: 'default', file: 'SOUL.md', agent: agentIds.agentOwnRead }],
      ['members.list', projectRoutes.listMembers, { project: 'default' }],
      ['audit.read', projectRoutes.audit, { project: 'default' }],
      ['tokens.list', projectRoutes.listTokens, { project: 'default' }],
      ['tokens.mintForOther', projectRoutes.createToken, { project: 'default', user: 'carol' }],
    ];
    await Promise.all(
      ACTORS.flatMap((actor) =>
        jsonCells.map(async ([cell, route, input]) => {
          const expected = MATRIX[cell]![actor]!;
          const client = new StoaClient({ url, token: tokens[actor] });
          const got = await client.call(route, input as never).then(
            (r) => ({ code: 'ok', text: JSON.stringify(r) }),
            (e: { code: string; message: string }) => ({ code: e.code, text: e.message }),
          );
          const secret = SECRETS[cell.split('.')[0] as ResourceName];
          if (got.code !== expected) failures.push(`${actor} ${cell}: expected ${expected}, got ${got.code} ${got.text.slice(0, 120)}`);
          if (expected !== 'ok' && secret && got.text.includes(secret)) failures.push(`${actor} ${cell}: refusal leaks`);
        }),
      ),
    );
    expect(failures).toEqual([]);
  }, 60_000);

  it('MCP (Streamable HTTP): agents get the same answers from the tools; people are turned away', async () => {
    const failures: string[] = [];
    const call = async (actor: ActorName, name: string, args: Record<string, unknown>) => {
      let c = mcpClients.find((x) => (x as unknown as { actor?: string }).actor === actor);
      if (!c) {
        c = new Client({ name: 'access-matrix', version: '1.0.0' });
        await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${tokens[actor]}` } } }));
        (c as unknown as { actor?: string }).actor = actor;
        mcpClients.push(c);
      }
      const r = (await c.callTool({ name, arguments: args })) as { content: Array<{ text?: string }>; isError?: boolean };
      const text = r.content.map((x) => x.text ?? '').join('\n');
      return { ok: !r.isError && !text.startsWith('Refused'), text };
    };
    await Promise.all(
      AGENTS.map(async (actor) => {
        const own = `agents/${agentIds[actor]}`;
        const checks: Array<[string, string, Record<string, unknown>, ResourceName | null]> = [
          ['rootFile.read', 'ws_read_file', { path: 'shared/plan.md' }, 'rootFile'],
          ['otherAgentFolder.read', 'ws_read_file', { path: `agents/${agentIds.agentOff}/secret.md` }, 'otherAgentFolder'],
          ['rootFile.write', 'ws_write_file', { path: `shared/mcp-${actor}.md`, content: 'x', mode: 'overwrite' }, null],
          ['ownFolder.write', 'ws_write_file', { path: `${own}/mcp.md`, content: 'x', mode: 'overwrite' }, null],
          // The memory tools name no other agent: an agent reads its own SOUL.md and the MEMORY.md of a channel.
          ['soul.read', 'memory_get', { file: 'SOUL.md' }, 'soul'],
          ['memoryMd.read', 'memory_get', { file: 'MEMORY.md', channel: 'team' }, 'memoryMd'],
          ['channelPage.read', 'wiki_get', { path: 'team-notes' }, 'channelPage'],
        ];
        for (const [cell, tool, args, resource] of checks) {
          // An agent that effectively writes its own folder (A2) has its paths resolved there (A3): no root path to try.
          if (cell === 'rootFile.write' && writesOwnFolder(actor)) continue;
          const got = await call(actor, tool, args);
          const want = MATRIX[cell]![actor] === 'ok';
          // A read is judged by what it reveals: the planted words, or none of them.
          if (resource && SECRETS[resource]) got.ok = got.text.includes(SECRETS[resource]!);
          if (got.ok !== want) failures.push(`${actor} ${tool} ${cell}: expected ${want ? 'ok' : 'refusal'}, got ${got.text.slice(0, 160)}`);
          if (!want && resource && SECRETS[resource] && got.text.includes(SECRETS[resource]!)) failures.push(`${actor} ${cell}: refusal leaks`);
        }
      }),
    );
    for (const actor of ['editor', 'revoked', 'anonymous'] as const) {
      const res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(tokens[actor] ? { authorization: `Bearer ${tokens[actor]}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect([401, 403], actor).toContain(res.status);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('WebDAV: files answer the same with the token as the Basic password', async () => {
    const failures: string[] = [];
    const dav = async (actor: ActorName, method: string, path: string, body?: string, project = 'default') => {
      const headers: Record<string, string> = { depth: '1' };
      if (tokens[actor]) headers.authorization = `Basic ${Buffer.from(`x:${tokens[actor]}`).toString('base64')}`;
      // Named explicitly: a bare /dav/ is the token's own project (a scoped token's, an agent's).
      const base = `${url}/projects/${project}/dav/`;
      const res = await fetch(base + path.split('/').map(encodeURIComponent).join('/'), { method, headers, body });
      return { status: res.status, text: await res.text() };
    };
    await Promise.all(
      ACTORS.map(async (actor) => {
        const checks: Array<[string, string, string, string | undefined, string]> = [
          ['rootFile.read', 'GET', 'shared/plan.md', undefined, 'default'],
          ['otherAgentFolder.read', 'GET', `agents/${agentIds.agentOff}/secret.md`, undefined, 'default'],
          ['rootFile.write', 'PUT', `shared/dav-${actor}.md`, 'x', 'default'],
          ['otherProjectFile.read', 'GET', 'p2/secret.md', undefined, 'other'],
        ];
        for (const [cell, method, path, body, project] of checks) {
          const expected = MATRIX[cell]![actor]!;
          // Agents reach /dav/ of their own project only; their "own folder" writes of A3 are checked over HTTP.
          if (cell === 'rootFile.write' && writesOwnFolder(actor)) continue;
          const r = await dav(actor, method, path, body, project);
          if (!status[expected].includes(r.status))
            failures.push(`${actor} DAV ${method} ${cell}: expected ${expected}, got ${r.status} ${r.text.slice(0, 120)}`);
          const secret = SECRETS[cell.split('.')[0] as ResourceName];
          if (expected !== 'ok' && secret && r.text.includes(secret)) failures.push(`${actor} DAV ${cell}: refusal leaks`);
        }
        // A listing never names what the actor may not read.
        const list = await dav(actor, 'PROPFIND', `agents/${agentIds.agentOff}/`);
        if (!mayKnow(actor, 'otherAgentFolder') && list.text.includes('secret.md')) failures.push(`${actor} DAV PROPFIND lists another agent's file`);
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);

  it('CLI remote (stoa --url --token): reads and writes answer the same, errors as `error <code>:`; invitations accept', async () => {
    const cases: Array<[ActorName, string[], string]> = [
      ['viewer', ['files', 'get', 'shared/plan.md', '-'], 'rootFile.read'],
      ['viewer', ['wiki', 'get', 'team-notes'], 'channelPage.read'],
      ['agentOwnOwn', ['files', 'get', 'shared/plan.md', '-'], 'rootFile.read'],
      ['otherProject', ['--project', 'default', 'files', 'get', 'shared/plan.md', '-'], 'rootFile.read'],
      ['projectAdmin', ['tokens', 'create', '--user', 'carol'], 'tokens.mintForOther'],
      ['revoked', ['files', 'ls'], 'rootFile.read'],
    ];
    const inv = await new StoaClient({ url, token: tokens.projectAdmin }).call(projectRoutes.createInvitation, {
      project: 'default',
      role: 'editor',
      user: 'cli-newcomer',
    });
    const [results, accepted] = await Promise.all([
      Promise.all(cases.map(([actor, args]) => runStoa(['--url', url, '--token', tokens[actor] ?? '', ...args]))),
      runStoa(['--url', url, 'invitations', 'accept', inv.code, '--json']),
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ user: 'cli-newcomer', role: 'editor', token: expect.stringMatching(/^stoa_/) });
    cases.forEach(([actor, , cell], i) => {
      const r = results[i]!;
      const expected = MATRIX[cell]![actor]!;
      const label = `${actor} ${cell}: ${r.stderr}`;
      if (expected === 'ok') expect(r.code, label).toBe(0);
      else {
        expect(r.code, label).toBe(1);
        expect(r.stderr, label).toMatch(new RegExp(`^error ${expected}: `));
      }
      for (const secret of Object.values(SECRETS)) if (expected !== 'ok') expect(r.stdout + r.stderr, label).not.toContain(secret);
    });
  }, 300_000);

  it('side channels: search, listings and backlinks show nobody what the model hides', async () => {
    const leaks: string[] = [];
    await Promise.all(
      ACTORS.filter((a) => !['revoked', 'anonymous'].includes(a)).map(async (actor) => {
        const project = actor === 'otherProject' ? 'other' : 'default';
        const replies = await Promise.all([
          http(actor, 'GET', `/projects/${project}/search?${q({ q: 'zebracorn' })}`),
          http(actor, 'GET', `/projects/${project}/wiki/search?${q({ q: 'zebracorn' })}`),
          http(actor, 'GET', `/projects/${project}/memory/search?${q({ q: 'zebracorn' })}`),
          http(actor, 'GET', `/projects/${project}/files?${q({ prefix: '' })}`),
          http(actor, 'GET', `/projects/${project}/files/find?${q({ text: 'secret' })}`),
          http(actor, 'GET', `/projects/${project}/wiki/pages`),
          http(actor, 'GET', `/projects/${project}/wiki/page?${q({ path: 'handbook' })}`),
          http(actor, 'GET', `/projects/${project}/memory`),
          http(actor, 'GET', `/projects/${project}/audit`),
        ]);
        const seen = replies.map((r) => r.text).join('\n');
        for (const [resource, secret] of Object.entries(SECRETS) as Array<[ResourceName, string]>) {
          const allowed = resource === 'otherProjectFile' ? actor === 'otherProject' : actor !== 'otherProject' && mayKnow(actor, resource);
          if (!allowed && seen.includes(secret)) leaks.push(`${actor} sees "${secret}"`);
        }
        // Names are secrets too: the channel page's path in listings and "linked here", another agent's file.
        if (!mayKnow(actor, 'channelPage') && seen.includes('team-notes')) leaks.push(`${actor} learns the channel page exists`);
        if (!mayKnow(actor, 'otherAgentFolder') && seen.includes(`${agentIds.agentOff}/secret.md`)) leaks.push(`${actor} learns another agent's file name`);
        if (actor !== 'otherProject' && seen.includes('p2/secret.md')) leaks.push(`${actor} learns another project's file name`);
      }),
    );
    expect(leaks).toEqual([]);
  }, 120_000);

  it('error messages: another project and a project that does not exist look the same', async () => {
    const [exists, missing] = await Promise.all([http('editor', 'GET', '/projects/other/files'), http('editor', 'GET', '/projects/nope/files')]);
    expect([exists.status, exists.code]).toEqual([missing.status, missing.code]);
    expect(exists.text.replace(/other/g, 'X')).toBe(missing.text.replace(/nope/g, 'X'));
  });

  it("invitations: created by a project admin (SDK), redeemed once over HTTP for a new person's own token, and by a signed-in person", async () => {
    const pat = new StoaClient({ url, token: tokens.projectAdmin });
    const inv = await pat.call(projectRoutes.createInvitation, { project: 'default', role: 'viewer' });
    const editorTries = await new StoaClient({ url, token: tokens.editor })
      .call(projectRoutes.createInvitation, { project: 'default', role: 'admin' })
      .catch((e: { code: string }) => e.code);
    expect(editorTries).toBe('forbidden');
    const accept = (body: unknown, token?: string) =>
      fetch(`${url}/api/v1/invitations/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    // The installation admin's name cannot be claimed; a new name can, once.
    expect((await accept({ code: inv.code, user: 'admin' })).status).toBe(409);
    const joined = await accept({ code: inv.code, user: 'newcomer' });
    expect(joined.status).toBe(200);
    const { token, role } = (await joined.json()) as { token: string; role: string };
    expect(role).toBe('viewer');
    expect((await accept({ code: inv.code, user: 'someone' })).status).toBe(401);
    const files = await fetch(`${url}/api/v1/projects/default/files`, { headers: { authorization: `Bearer ${token}` } });
    expect(files.status).toBe(200);
    // Olga accepts an invitation addressed to her, signed in with a token confined to her project: she becomes a
    // member, but that token still reaches only its own project.
    const forOlga = await pat.call(projectRoutes.createInvitation, { project: 'default', role: 'viewer', user: 'olga' });
    const olga = new StoaClient({ url, token: tokens.otherProject });
    expect(await olga.call(projectRoutes.acceptInvitation, { code: forOlga.code })).toMatchObject({ user: 'olga', role: 'viewer' });
    expect((await http('otherProject', 'GET', '/projects/default/files')).code).toBe('not_found');
  });

  it('web hardening: CSP, nosniff, no framing, no referrer on every answer; previews keep their sandbox', async () => {
    const [page, preview] = await Promise.all([
      fetch(`${url}/api/v1/openapi.json`),
      fetch(`${url}/api/v1/projects/default/files/preview?${q({ path: 'shared/plan.md' })}`, { headers: { authorization: `Bearer ${tokens.editor}` } }),
    ]);
    for (const r of [page, preview]) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(preview.headers.get('content-security-policy')).toContain('sandbox');
  });
  it('guessing tokens: the address is throttled with 429, a stable code and Retry-After', async () => {
    t.platform.config.auth = { failures: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) await http('revoked', 'GET', '/projects/default/files');
    const r = await fetch(`${url}/api/v1/projects/default/files`, { headers: { authorization: 'Bearer stoa_guess' } });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await r.json()) as { code: string }).code).toBe('rate_limited');
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'guess' }),
    });
    expect(login.status).toBe(429);
  });
});
