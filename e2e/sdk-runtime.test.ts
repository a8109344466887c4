import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { StoaClient, WorkspaceFiles, type PortableReference, type VolumeRequest } from '@stoa/sdk';
import { agentRoutes, filesRoutes, projectRoutes, StoaError } from '@stoa/contract';
import { baseEnv, REPO } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const exec = promisify(execFile);
const QUOTA = 40_000;
const AGENT_WRITE = 15_000;

/** The code a call is refused with. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StoaError) return e.code;
    throw e;
  }
  return 'ok';
}

describe('the workspace-files runtime of the SDK, through a real server (docs/sdk.md)', { timeout: 180_000 }, () => {
  let server: StoaServer;
  let client: StoaClient;
  const example = async (name: string, ...args: string[]) => exampleAs(server.adminToken, name, ...args);
  const exampleAs = async (token: string, name: string, ...args: string[]) => {
    const env = baseEnv({ STOA_URL: server.url, STOA_TOKEN: token });
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', `packages/sdk/examples/${name}.ts`, ...args], { cwd: REPO, env, timeout: 120_000 });
    return JSON.parse(stdout) as any;
  };

  beforeAll(async () => {
    // Small limits, so each volume's quota and an agent's write limit can be reached with a few files.
    server = await startStoaServer({ env: { STOA_QUOTA_BYTES: String(QUOTA), STOA_AGENT_WRITE_BYTES: String(AGENT_WRITE) } });
    client = new StoaClient({ url: server.url, token: server.adminToken });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('queue worker: a portable reference made in one process resolves in another, after the file was renamed', async () => {
    const reference = (await example('queue-worker', 'enqueue', 'résumé of the job — 任务')) as PortableReference;
    expect(reference).toMatchObject({ source: 'platform.workspace.files', scope: { catalog: 'projects', projectName: 'default' }, version: 1 });
    expect(reference.workspacePath).toBe(`/workspace/${reference.filePath}`);
    await client.call(filesRoutes.move, { project: 'default', from: reference.filePath, to: 'done/job.txt' });
    const done = await example('queue-worker', 'work', JSON.stringify(reference));
    expect(done).toEqual({ path: 'done/job.txt', mimeType: 'text/plain', text: 'résumé of the job — 任务' });
  });

  it('sandbox tool: writes its output and hands back a link that opens without a token, until the file is gone', async () => {
    const { reference, url, expiresAt } = await example('sandbox-tool');
    expect(reference.filePath).toBe('outputs/summary.csv');
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(200_000);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect(await res.text()).toBe('city,visits\nМосква,12\n北京,7\n');
    // Another signature, and the same signature in another spelling (its last character's unused bits).
    const at = url.length - 10;
    const forged = url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1);
    expect((await fetch(forged)).status).toBe(401);
    const last = url.at(-1)!;
    const respelled = url.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) ^ 1);
    expect((await fetch(respelled)).status).toBe(401);
    const files = await WorkspaceFiles.open(client, 'default');
    await files.deleteFile(reference);
    expect((await fetch(url)).status).toBe(404);
  });

  it('normalises locators without reading, and refuses host paths, escapes and references of another workspace', async () => {
    const files = await WorkspaceFiles.open(client, 'default');
    expect(files.resolveRuntimeReference('/workspace/a/b.txt')).toEqual({ filePath: 'a/b.txt', workspacePath: '/workspace/a/b.txt', fileId: null });
    expect(files.resolveRuntimeReference({ path: 'a/b.txt', mimeType: 'text/plain' }).filePath).toBe('a/b.txt');
    for (const bad of ['/etc/passwd', '/workspace/a/../../b', 'a/./b', '']) expect(() => files.resolveRuntimeReference(bad)).toThrow(/path/);
    const other = { ...files.scope, projectId: 'prj_other' };
    expect(() => files.resolveRuntimeReference({ scope: other, filePath: 'a.txt' })).toThrow(/another workspace/);
    const { reference } = await files.uploadBuffer(Buffer.from('v1'), { filePath: 'versions/a.txt' });
    await files.uploadBuffer(Buffer.from('v2'), { filePath: 'versions/a.txt' });
    expect((await files.readBuffer(reference)).toString()).toBe('v2');
    const old = await files.resolveFile(reference, { version: 1 });
    expect(await (await fetch(old.url)).text()).toBe('v1');
  });

  /** A new person, an editor of the default project, with their own installation-wide token (an invitation's). */
  async function newPerson(name: string): Promise<{ client: StoaClient; token: string }> {
    const inv = await client.call(projectRoutes.createInvitation, { project: 'default', role: 'editor' });
    const accepted = await new StoaClient({ url: server.url }).call(projectRoutes.acceptInvitation, { code: inv.code, user: name });
    return { client: new StoaClient({ url: server.url, token: accepted.token! }), token: accepted.token! };
  }
  /** An agent of the default project owned by `owner`, with file access, and its token. */
  async function newAgent(owner: StoaClient, name: string) {
    const agent = await owner.call(agentRoutes.create, { project: 'default', name, files: 'on', write: 'project', read: 'project' });
    const { token } = await client.call(projectRoutes.createToken, { project: 'default', agent: agent.id });
    return { agent, client: new StoaClient({ url: server.url, token }) };
  }

  const catalogs = ['projects', 'users', 'xperts', 'user-xperts', 'knowledges', 'skills'] as const;
  it.each(catalogs)('every runtime call works in a %s volume, with its scope, quota, limits and privacy', async (catalog) => {
    const tag = `${catalog}-${Math.random().toString(36).slice(2, 8)}`;
    const owner = await newPerson(`owner-${tag}`);
    const stranger = await newPerson(`stranger-${tag}`);
    const { agent, client: agentClient } = await newAgent(owner.client, `agent-${tag}`);
    const requests: Record<(typeof catalogs)[number], [StoaClient, VolumeRequest | string]> = {
      projects: [owner.client, 'default'],
      users: [owner.client, { catalog: 'users' }],
      xperts: [agentClient, { catalog: 'xperts' }],
      'user-xperts': [owner.client, { catalog: 'user-xperts', agent: agent.id }],
      knowledges: [owner.client, { catalog: 'knowledges', project: 'default', name: `KB ${tag}` }],
      skills: [owner.client, { catalog: 'skills', project: 'default', name: `Skills ${tag}` }],
    };
    const [actor, request] = requests[catalog];
    const files = await WorkspaceFiles.open(actor, request);
    expect(files.scope.catalog).toBe(catalog);
    if (catalog !== 'projects') expect(files.scope.volumeId).toMatch(/^vol_/);
    if (catalog === 'user-xperts') expect(files.scope).toMatchObject({ scopeId: agent.id, xpertId: agent.id, userId: expect.stringMatching(/^usr_/) });
    if (catalog !== 'projects') {
      // Listed from its project for whoever opened it, and opened again by its ID alone, with the same scope.
      const listed = await WorkspaceFiles.list(actor, 'default', catalog);
      expect(listed.map((v) => v.volumeId)).toContain(files.scope.volumeId);
      expect((await WorkspaceFiles.open(actor, files.scope.volumeId)).scope).toEqual(files.scope);
      const strangerSees = (await WorkspaceFiles.list(stranger.client, 'default', catalog)).map((v) => v.volumeId);
      // A fellow editor sees the project's knowledge bases and skill packages, never someone's private volumes.
      expect(strangerSees.includes(files.scope.volumeId)).toBe(catalog === 'knowledges' || catalog === 'skills');
    }

    // Upload with metadata, resolve, read, and a portable reference that survives serialisation.
    const { file, reference } = await files.writeRuntimeBuffer({
      buffer: Buffer.from('первый — 第一'),
      originalName: 'in.txt',
      folder: '/workspace/jobs',
      metadata: { job: tag },
    });
    expect(file).toMatchObject({ path: 'jobs/in.txt', metadata: { job: tag } });
    expect(reference).toMatchObject({ source: 'platform.workspace.files', filePath: 'jobs/in.txt', workspacePath: '/workspace/jobs/in.txt' });
    const resolved = await files.resolveFile(reference);
    expect(resolved.file.metadata).toEqual({ job: tag });
    expect(await (await fetch(resolved.url)).text()).toBe('первый — 第一');
    const again = await WorkspaceFiles.open(actor, request); // a new runtime, as another process would make
    const read = await again.readRuntimeBuffer(JSON.parse(JSON.stringify(reference)) as PortableReference);
    expect([read.buffer.toString(), read.mimeType, read.metadata]).toEqual(['первый — 第一', 'text/plain', { job: tag }]);

    // A runtime of another volume refuses the reference; a stranger cannot reach a private volume at all.
    const elsewhere = await WorkspaceFiles.open(stranger.client, { catalog: 'users' });
    expect(await refusal(elsewhere.readRuntimeBuffer(reference))).toBe('forbidden');
    if (catalog === 'users' || catalog === 'user-xperts' || catalog === 'xperts') {
      expect(await refusal(stranger.client.call(filesRoutes.stat, { project: files.scope.volumeId, path: 'jobs/in.txt' }))).toBe('not_found');
    }

    // Quota of this volume, and an agent's own write limit where an agent writes.
    if (catalog === 'xperts') expect(await refusal(files.uploadBuffer(Buffer.alloc(AGENT_WRITE + 1), { filePath: 'huge.bin' }))).toBe('too_large');
    const big = Buffer.alloc(AGENT_WRITE - 1000, 97);
    expect(await refusal(files.uploadBuffer(big, { filePath: 'fill/1.bin' }))).toBe('ok');
    expect(await refusal(files.uploadBuffer(big, { filePath: 'fill/2.bin' }))).toBe('ok');
    expect(await refusal(files.uploadBuffer(big, { filePath: 'fill/3.bin' }))).toBe('quota_exceeded');
    for (const p of ['fill/1.bin', 'fill/2.bin']) await files.deleteFile(p);

    // Delete by the portable reference; afterwards it answers not_found.
    await files.deleteFile(reference);
    expect(await refusal(files.resolveFile(reference))).toBe('not_found');

    // A declared type: taken for a name that says nothing, refused where the name says otherwise.
    const typed = await files.writeRuntimeBuffer({ buffer: Buffer.from('a,b\n'), originalName: 'export', mimeType: 'text/csv', folder: 'out' });
    expect((await files.readRuntimeBuffer(typed.reference)).mimeType).toBe('text/csv');
    expect(await refusal(files.writeRuntimeBuffer({ buffer: Buffer.from('<b>'), originalName: 'page.png', mimeType: 'text/html' }))).toBe('bad_request');
    await files.deleteFile(typed.reference);
  });

  it("an agent's limit holds in the volumes it writes: its private volume with its owner", async () => {
    const owner = await newPerson(`limits-${Date.now()}`);
    const { client: agentClient } = await newAgent(owner.client, `limits-agent-${Date.now()}`);
    const files = await WorkspaceFiles.open(agentClient, { catalog: 'user-xperts' });
    expect(files.scope.userId).toBe((await owner.client.call(projectRoutes.me, {})).id);
    expect(await refusal(files.uploadBuffer(Buffer.alloc(AGENT_WRITE + 1), { filePath: 'huge.bin' }))).toBe('too_large');
    expect(await refusal(files.uploadBuffer(Buffer.from('ok'), { filePath: 'small.txt' }))).toBe('ok');
  });

  it('volume notes example (docs/sdk.md): writes into your own volume with metadata and reads it back by reference', async () => {
    const person = await newPerson(`notes-${Date.now()}`);
    const out = await exampleAs(person.token, 'volume-notes', 'users');
    expect(out.scope).toMatchObject({ catalog: 'users', actor: { kind: 'user' }, access: 'admin' });
    expect(out.scope.userId).toBe(out.scope.scopeId);
    expect(out.reference).toMatchObject({ filePath: 'notes/today.md', scope: { volumeId: out.scope.volumeId } });
    expect(out.metadata).toEqual({ source: 'volume-notes', catalog: 'users' });
    expect(out.text).toMatch(/^note of \d{4}-\d{2}-\d{2}\n$/);
    const kb = await exampleAs(person.token, 'volume-notes', 'knowledges', 'default', 'Team handbook');
    expect(kb.scope).toMatchObject({ catalog: 'knowledges', name: 'Team handbook', projectName: 'default' });
  });
});
