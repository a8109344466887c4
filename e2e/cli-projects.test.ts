import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-projects-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa serve, projects, members, tokens, audit', { timeout: 180_000, shuffle: false }, () => {
  let server: StoaServer;
  let admin: string[];
  beforeAll(async () => {
    server = await startStoaServer();
    admin = ['--url', server.url, '--token', server.adminToken];
  }, 120_000);
  afterAll(() => server.stop());

  it('serve prints the URL it listens on, the admin token once and a one-time login link that works once', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.banner).toMatch(/^Stoa is listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(server.adminToken).toMatch(/^stoa_\S{20,}$/);
    expect(server.loginUrl.startsWith(`${server.url}/login?code=`)).toBe(true);
    const code = new URL(server.loginUrl).searchParams.get('code');
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    expect((await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const again = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(again.status).toBe(401);
  });

  it('a fresh data folder has the project "default"; projects create and list', async () => {
    const created = await stoaJson([...admin, 'projects', 'create', 'Исследования', '--json']);
    expect(created).toMatchObject({ name: 'Исследования', id: expect.stringMatching(/^prj_/) });
    const list = await stoaJson([...admin, 'projects', 'list', '--json']);
    expect(list.map((p: any) => p.name)).toEqual(['default', 'Исследования']);
    const dup = await runStoa([...admin, 'projects', 'create', 'Исследования']);
    expect([dup.code, dup.stderr]).toEqual([1, 'error already_exists: project "Исследования" already exists\n']);
  });

  it("members add creates the user with a role; members list; a member's token works remotely with that role", async () => {
    const [bob, eve] = await Promise.all([
      stoaJson([...admin, 'members', 'add', 'bob', '--role', 'viewer', '--json']),
      stoaJson([...admin, 'members', 'add', 'eve', '--role', 'editor', '--json']),
    ]);
    expect(bob).toMatchObject({ name: 'bob', role: 'viewer' });
    expect(eve).toMatchObject({ name: 'eve', role: 'editor' });
    const [members, bobToken, eveToken] = await Promise.all([
      stoaJson([...admin, 'members', 'list', '--json']),
      stoaJson([...admin, 'tokens', 'create', '--user', 'bob', '--json']),
      stoaJson([...admin, 'tokens', 'create', '--user', 'eve', '--json']),
    ]);
    expect(members.map((m: any) => [m.name, m.role])).toEqual([
      ['admin', 'admin'],
      ['bob', 'viewer'],
      ['eve', 'editor'],
    ]);
    expect(bobToken.token).toMatch(/^stoa_/);
    const local = join(tmp, 'note.md');
    writeFileSync(local, 'hello from eve');
    const eveCli = ['--url', server.url, '--token', eveToken.token];
    const bobCli = ['--url', server.url, '--token', bobToken.token];
    const evePut = await stoaJson([...eveCli, 'files', 'put', local, 'team/note.md', '--json']);
    expect(evePut).toMatchObject({ path: 'team/note.md', createdBy: '' });
    const [bobPut, bobLs, bobAudit, eveAudit, audit] = await Promise.all([
      runStoa([...bobCli, 'files', 'put', local, 'team/bob.md']),
      stoaJson([...bobCli, 'files', 'ls', '--json']),
      runStoa([...bobCli, 'audit']),
      runStoa([...eveCli, 'audit']),
      stoaJson([...admin, 'audit', '--json']),
    ]);
    expect(bobPut.code).toBe(1);
    expect(bobPut.stderr).toBe('error forbidden: viewers may not change files; an editor or admin can\n');
    expect(bobLs.map((f: any) => f.path)).toEqual(['team/note.md']);
    expect([bobAudit.code, eveAudit.code]).toEqual([1, 1]);
    expect(eveAudit.stderr).toMatch(/^error forbidden: /);
    expect(audit[0]).toMatchObject({ action: 'file.upload', path: 'team/note.md', actor: { name: 'eve' } });
  });

  it('a bad token is refused with error unauthorized; tokens create takes at most one of --user/--agent', async () => {
    const [bad, both] = await Promise.all([
      runStoa(['--url', server.url, '--token', 'stoa_wrong', 'files', 'ls']),
      runStoa([...admin, 'tokens', 'create', '--user', 'admin', '--agent', 'agt_00000000']),
    ]);
    expect([bad.code, bad.stderr]).toEqual([1, 'error unauthorized: a valid token is required\n']);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^error bad_request: /);
  });

  it('local mode (--data) works on the same data folder as the running server, as its administrator', async () => {
    const [projects, audit] = await Promise.all([
      stoaJson(['--data', server.dataDir, 'projects', 'list', '--json']),
      stoaJson(['--data', server.dataDir, 'audit', '--json']),
    ]);
    expect(projects.map((p: any) => p.name)).toEqual(['default', 'Исследования']);
    expect(audit.some((e: any) => e.path === 'team/note.md')).toBe(true);
  });
});

describe('stoa serve with STOA_ADMIN_TOKEN', { timeout: 180_000 }, () => {
  it("accepts that token as the administrator's and prints no generated one", async () => {
    const token = 'stoa_fixed_admin_token_for_tests_0123456789';
    const server = await startStoaServer({ env: { STOA_ADMIN_TOKEN: token } });
    try {
      expect(server.banner).not.toMatch(/shown once/);
      expect(server.banner).toMatch(/STOA_ADMIN_TOKEN/);
      const list = await stoaJson(['projects', 'list', '--json'], { env: { STOA_URL: server.url, STOA_TOKEN: token } });
      expect(list.map((p: any) => p.name)).toEqual(['default']);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('stoa serve on a data folder served before', { timeout: 180_000 }, () => {
  it('keeps the admin token of the first start and says how to get a new one', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-cli-restart-'));
    try {
      const first = await startStoaServer({ dataDir: data });
      await first.stop();
      const second = await startStoaServer({ dataDir: data });
      try {
        expect(second.banner).not.toMatch(/shown once/);
        expect(second.banner).toContain('Admin token: the one printed when this data folder was first served');
        const me = await fetch(`${second.url}/api/v1/me`, { headers: { authorization: `Bearer ${first.adminToken}` } });
        expect(me.status).toBe(200);
        expect(await me.json()).toMatchObject({ kind: 'user', name: 'admin' });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }, 120_000);
});
