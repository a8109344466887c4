import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

// Issue 29: a token minted as the README shows (`members add alice` and `tokens create --user alice` in local
// mode, then `serve`) opens alice's own files ("My files") — every token of a person does — and nobody else's.
describe("a person's every token opens their own files (README's onboarding)", { timeout: 180_000 }, () => {
  let data: string;
  let server: StoaServer;
  let alice = '';
  let bob = '';

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'stoa-person-token-'));
    expect((await runStoa(['--data', data, 'members', 'add', 'alice', '--role', 'editor'])).code).toBe(0);
    expect((await runStoa(['--data', data, 'members', 'add', 'bob', '--role', 'editor'])).code).toBe(0);
    alice = (await stoaJson<{ token: string }>(['--data', data, 'tokens', 'create', '--user', 'alice', '--json'])).token;
    bob = (await stoaJson<{ token: string }>(['--data', data, 'tokens', 'create', '--user', 'bob', '--json'])).token;
    server = await startStoaServer({ dataDir: data });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  const as = (token: string, ...args: string[]) => runStoa(['--url', server.url, '--token', token, ...args], { input: 'записка\n' });

  it('the token opens "My files", writes and lists there, and it is listed among the volumes', async () => {
    const open = await fetch(`${server.url}/api/v1/volumes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ catalog: 'users' }),
    });
    expect(open.status).toBe(200);
    const scope = (await open.json()) as { volumeId: string; catalog: string; access: string };
    expect(scope).toMatchObject({ catalog: 'users', access: 'admin' });
    const put = await as(alice, '--volume', 'users', 'files', 'put', '-', 'notes/мои заметки.md', '--json');
    expect(put.code, put.stderr).toBe(0);
    const ls = await as(alice, '--volume', 'users', 'files', 'ls', '--json');
    expect(ls.stdout).toContain('notes/мои заметки.md');
    const listed = await fetch(`${server.url}/api/v1/projects/default/volumes?catalog=users`, { headers: { authorization: `Bearer ${alice}` } });
    expect(((await listed.json()) as Array<{ volumeId: string }>).map((v) => v.volumeId)).toEqual([scope.volumeId]);

    // Bob's token opens Bob's own volume, never Alice's.
    const bobs = await as(bob, '--volume', 'users', 'files', 'ls', '--json');
    expect(bobs.code).toBe(0);
    expect(bobs.stdout).not.toContain('мои заметки');
    const foreign = await fetch(`${server.url}/api/v1/projects/${scope.volumeId}/files`, { headers: { authorization: `Bearer ${bob}` } });
    expect(foreign.status).toBe(404);
  });
});
