import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { StoaClient, WorkspaceFiles, type PortableReference } from '@stoa/sdk';
import { filesRoutes } from '@stoa/contract';
import { baseEnv, REPO } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const exec = promisify(execFile);

describe('the workspace-files runtime of the SDK, through a real server (docs/sdk.md)', { timeout: 180_000 }, () => {
  let server: StoaServer;
  let client: StoaClient;
  const example = async (name: string, ...args: string[]) => {
    const env = baseEnv({ STOA_URL: server.url, STOA_TOKEN: server.adminToken });
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', `packages/sdk/examples/${name}.ts`, ...args], { cwd: REPO, env, timeout: 120_000 });
    return JSON.parse(stdout) as any;
  };

  beforeAll(async () => {
    server = await startStoaServer();
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
});
