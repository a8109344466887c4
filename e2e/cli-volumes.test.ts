import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { baseEnv, REPO, runStoa, STOA_BIN, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-volumes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stoa --volume: every files command on a volume beyond projects (R1)', { timeout: 180_000 }, () => {
  let server: StoaServer;
  beforeAll(async () => {
    server = await startStoaServer();
  }, 120_000);
  afterAll(() => server.stop());

  /** A new person with their own installation-wide token (an invitation to the default project, as an editor). */
  async function person(name: string): Promise<string[]> {
    const post = async (path: string, token: string | null, body: unknown) => {
      const r = await fetch(`${server.url}/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await r.json()) as any;
    };
    const inv = await post('/projects/default/invitations', server.adminToken, { role: 'editor' });
    const { token } = await post('/invitations/accept', null, { code: inv.code, user: name });
    return ['--url', server.url, '--token', token];
  }

  it("remote: your own volume is yours alone; someone else's answers not_found", async () => {
    const ann = await person(`ann-${Date.now()}`);
    const ben = await person(`ben-${Date.now()}`);
    const scope = await stoaJson([...ann, '--volume', 'users', 'volume', '--json']);
    expect(scope).toMatchObject({ catalog: 'users', volumeId: expect.stringMatching(/^vol_/), access: 'admin' });
    expect(scope.userId).toBe(scope.scopeId);
    await stoaJson([...ann, '--volume', 'users', 'files', 'put', '-', 'drafts/idea.md', '--json'], { input: 'a private idea' });
    expect((await stoaJson([...ann, '--volume', 'users', 'files', 'ls', '--json'])).map((f: any) => f.path)).toEqual(['drafts/idea.md']);
    const get = await runStoa([...ann, '--volume', 'users', 'files', 'get', 'drafts/idea.md', '-']);
    expect([get.code, get.stdout]).toEqual([0, 'a private idea']);
    // The same volume by its ID, as every door names it.
    expect((await stoaJson([...ann, '--project', scope.volumeId, 'files', 'stat', 'drafts/idea.md', '--json'])).size).toBe(14);
    // Ben has his own, empty; Ann's is not_found for him, and the project's files do not show hers.
    expect(await stoaJson([...ben, '--volume', 'users', 'files', 'ls', '--json'])).toEqual([]);
    const theirs = await runStoa([...ben, '--project', scope.volumeId, 'files', 'ls']);
    expect([theirs.code, theirs.stderr]).toEqual([1, 'error not_found: there is no such volume, or you may not see it\n']);
    expect((await stoaJson([...ann, 'files', 'ls', '--json'])).map((f: any) => f.path)).not.toContain('drafts/idea.md');
  });

  it('a knowledge base by name in a project; a bad --volume is a usage error', async () => {
    const ann = await person(`kb-${Date.now()}`);
    const kb = ['--volume', 'knowledges:Team handbook'];
    await stoaJson([...ann, ...kb, 'files', 'put', '-', 'refunds.md', '--json'], { input: 'within 30 days' });
    expect(await stoaJson([...ann, ...kb, 'volume', '--json'])).toMatchObject({ catalog: 'knowledges', name: 'Team handbook', projectName: 'default' });
    expect((await stoaJson([...ann, ...kb, 'files', 'ls', '--json'])).map((f: any) => f.path)).toEqual(['refunds.md']);
    // `stoa volume list`: what ann reaches from the project, the knowledge base among them, with its usage.
    const listed = await stoaJson([...ann, 'volume', 'list', '--json']);
    expect(listed).toContainEqual(expect.objectContaining({ catalog: 'knowledges', name: 'Team handbook', access: 'editor', usedBytes: 14 }));
    const human = await runStoa([...ann, 'volume', 'list', '--catalog', 'knowledges']);
    expect(human.stdout).toMatch(/knowledges\s+Team handbook\s+editor\s+14 B\s+vol_/);
    expect((await runStoa([...ann, 'volume', 'list', '--catalog', 'bogus'])).code).toBe(2);
    // Only an admin of the project deletes a knowledge base; ann is an editor.
    const kbId = listed.find((v: any) => v.name === 'Team handbook').volumeId;
    const refused = await runStoa([...ann, 'volume', 'delete', kbId]);
    expect([refused.code, refused.stderr]).toEqual([1, 'error forbidden: only an admin of its project may delete a knowledge base or skill package\n']);
    const bad = await runStoa([...ann, '--volume', 'knowledges', 'files', 'ls']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error usage: --volume "knowledges" is not a volume/);
  });

  it('local mode: the data folder administrator has a volume of their own', async () => {
    const data = join(tmp, 'local');
    await stoaJson(['--data', data, '--volume', 'users', 'files', 'put', '-', 'mine.txt', '--json'], { input: 'local' });
    expect((await stoaJson(['--data', data, '--volume', 'users', 'files', 'ls', '--json'])).map((f: any) => f.path)).toEqual(['mine.txt']);
    expect(await stoaJson(['--data', data, 'files', 'ls', '--json'])).toEqual([]);
  });

  it("local mode: stoa mcp --volume xperts serves an agent's own files over stdio", async () => {
    const data = join(tmp, 'mcp');
    const agent = (await stoaJson(['--data', data, 'agents', 'create', 'Keeper', '--files', 'on', '--json'])).id;
    const conv = (await stoaJson(['--data', data, 'conversations', 'create', '--members', agent, '--json'])).id;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STOA_BIN, 'mcp', '--data', data, '--agent', agent, '--conversation', conv, '--volume', 'xperts'],
      cwd: REPO,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stoa-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('ws_write_file');
      expect(names.some((n) => n.startsWith('wiki_') || n.startsWith('memory_'))).toBe(false);
      const w = (await client.callTool({ name: 'ws_write_file', arguments: { path: 'state/notes.md', content: 'remember this' } })) as any;
      expect(w.content[0].text).toMatch(/state\/notes\.md/);
    } finally {
      await client.close();
    }
    // The file is in the agent's volume, from its root, and not in the project.
    const ls = await stoaJson(['--data', data, '--agent', agent, '--volume', 'xperts', 'files', 'ls', '--json']);
    expect(ls.map((f: any) => f.path)).toEqual(['state/notes.md']);
    expect(await stoaJson(['--data', data, 'files', 'ls', '--json'])).toEqual([]);
  });
});
