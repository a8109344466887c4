import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { REPO, STOA_BIN, baseEnv, runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer } from './helpers/serve.js';
import { startS3Bucket } from './helpers/s3.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-first-hour-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `stoa serve` until it exits on its own (a start that fails) or the time is up. */
function serveUntilExit(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [STOA_BIN, 'serve', '--port', '0', ...args], { cwd: REPO, env: baseEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// Issue 32, "fail fast and say why", and issue 28's first steps: each trap a newcomer met, run as they would.
describe('the first hour: fail fast and say why', { timeout: 300_000 }, () => {
  it('an empty --url or --token is a usage error, never a silent local mode', async () => {
    const url = await runStoa(['--url', '', 'files', 'ls'], { cwd: tmp });
    expect([url.code, url.stderr]).toEqual([2, expect.stringContaining('--url is empty')]);
    const token = await runStoa(['--url', 'http://127.0.0.1:9', '--token', '', 'files', 'ls', '--json'], { cwd: tmp });
    expect(token.code).toBe(2);
    expect(JSON.parse(token.stderr)).toEqual({ error: { code: 'usage', message: expect.stringContaining('--token is empty') } });
    const serve = await runStoa(['--data', '', 'serve'], { cwd: tmp });
    expect([serve.code, serve.stderr]).toEqual([2, expect.stringContaining('--data is empty')]);
    expect(existsSync(join(tmp, 'stoa-data'))).toBe(false);
  });

  it('serve stops before "listening" when the bucket refuses its credentials, with the store\'s own reason', async () => {
    const { s3, env } = await startS3Bucket(join(tmp, 's3'), 'stoa', 'probe');
    try {
      const r = await serveUntilExit(['--data', join(tmp, 'bad-s3')], { ...env, AWS_ACCESS_KEY_ID: 'WRONG-KEY', AWS_SECRET_ACCESS_KEY: 'wrong-secret' });
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain('listening');
      expect(r.stderr).toMatch(/^error unavailable: object storage refused a write of a probe object: .*HTTP 403.*check AWS_ACCESS_KEY_ID/m);
      // With the right credentials the same start succeeds, and the probe leaves nothing behind.
      const ok = await startStoaServer({ dataDir: join(tmp, 'good-s3'), env });
      try {
        expect(ok.banner).toContain('storage: S3-compatible');
        const doctor = await stoaJson(['--url', ok.url, '--token', ok.adminToken, 'doctor', '--json']);
        expect(doctor).toMatchObject({ ok: true, checked: { storedBlobs: 0 } });
      } finally {
        await ok.stop();
      }
    } finally {
      await s3.close();
    }
  });

  it('a data folder first used in local mode still gets its admin token on the first serve, with what to type in another shell', async () => {
    const data = join(tmp, 'local-first');
    await stoaJson(['--data', data, 'files', 'mkdir', 'made-locally', '--json']);
    const server = await startStoaServer({ dataDir: data });
    try {
      expect(server.banner).toContain('Admin token (shown once, keep it): stoa_');
      expect(server.banner).toContain(`export STOA_URL=${server.url} STOA_TOKEN=${server.adminToken}`);
      // The commands the banner names work as written from another shell.
      const env = { STOA_URL: server.url, STOA_TOKEN: server.adminToken };
      expect(await stoaJson(['doctor', '--json'], { env, cwd: tmp })).toMatchObject({ ok: true });
      const link = await stoaJson(['login-link', '--json'], { env, cwd: tmp });
      expect(link.url).toMatch(new RegExp(`^${server.url}/login\\?code=`));
      // The link signs the administrator in once (the web UI's login page posts its code here).
      const code = new URL(link.url).searchParams.get('code');
      const login = (body: unknown) =>
        fetch(`${server.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const signedIn = await login({ code });
      expect([signedIn.status, (await signedIn.json()).user]).toEqual([200, 'admin']);
      expect((await login({ code })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('on a restart the banner names a command for a new installation token, and that token runs doctor remotely', async () => {
    const data = join(tmp, 'restart');
    const first = await startStoaServer({ dataDir: data });
    await first.stop();
    const second = await startStoaServer({ dataDir: data });
    try {
      const hint = /a new one: (npx stoa --data \S+ tokens create --installation)/.exec(second.banner)?.[1];
      expect(hint).toBeDefined();
      const made = await stoaJson(['--data', data, 'tokens', 'create', '--installation', '--json'], { cwd: tmp });
      expect(made).toMatchObject({ installation: true, token: expect.stringMatching(/^stoa_/) });
      const remote = ['--url', second.url, '--token', made.token];
      expect(await stoaJson([...remote, 'doctor', '--json'])).toMatchObject({ ok: true });
      // A project member's token cannot make one.
      await stoaJson([...remote, 'members', 'add', 'pat', '--role', 'admin', '--json']);
      const pat = (await stoaJson([...remote, 'tokens', 'create', '--user', 'pat', '--json'])).token as string;
      const refused = await runStoa(['--url', second.url, '--token', pat, 'tokens', 'create', '--installation']);
      expect([refused.code, refused.stderr.trim()]).toEqual([
        1,
        'error forbidden: only an installation administrator may create an installation administrator token',
      ]);
      const noLink = await runStoa(['--url', second.url, '--token', pat, 'login-link']);
      expect(noLink.code).toBe(1);
    } finally {
      await second.stop();
    }
  });

  it('on PostgreSQL the hint names the database, not a local SQLite folder', async ({ skip }) => {
    if (!process.env.STOA_TEST_PG) skip();
    const { createTestDb } = await import('@stoa/db/testing');
    const made = await createTestDb('postgres');
    try {
      const env = { STOA_DATABASE_URL: made.url! };
      const data = join(tmp, 'pg');
      const first = await startStoaServer({ dataDir: data, env });
      await first.stop();
      const second = await startStoaServer({ dataDir: data, env });
      await second.stop();
      expect(second.banner).toContain("a new one: STOA_DATABASE_URL='<this server's database URL>' npx stoa --data");
    } finally {
      await made.cleanup();
    }
  });

  it('a read never creates a volume', async () => {
    const data = join(tmp, 'volumes');
    const typo = await runStoa(['--data', data, '--volume', 'knowledges:Typo', 'files', 'ls']);
    expect([typo.code, typo.stderr.trim()]).toEqual([1, expect.stringContaining('volume "knowledges:Typo" does not exist')]);
    expect(await stoaJson(['--data', data, 'volume', 'list', '--json'])).toEqual([]);
    // A write creates it, and then reads find it.
    await stoaJson(['--data', data, '--volume', 'knowledges:Handbook', 'files', 'mkdir', 'chapters', '--json']);
    const ls = await runStoa(['--data', data, '--volume', 'knowledges:Handbook', 'files', 'ls', '--json']);
    expect(ls.code).toBe(0);
    // The doctor counts that volume apart from the projects.
    expect((await stoaJson(['--data', data, 'doctor', '--json'])).checked).toMatchObject({ projects: 1, volumes: 1 });
  });

  it('a local upload records who made it, and a document status says why its vector index is unavailable', async () => {
    const data = join(tmp, 'local-upload');
    await runStoa(['--data', data, 'files', 'put', '-', 'notes/hello.md'], { input: '# Hello\n\nA short note.' });
    const stat = await stoaJson(['--data', data, 'files', 'stat', 'notes/hello.md', '--json']);
    expect(stat.creator).toMatchObject({ kind: 'user', label: 'admin' });
    const human = await runStoa(['--data', data, 'files', 'stat', 'notes/hello.md']);
    expect(human.stdout).toMatch(/created by\s+admin \(person\)/);
    const understood = await runStoa(['--data', data, 'docs', 'understand', 'notes/hello.md']);
    expect(understood.stdout).toContain('vector index unavailable: no embedding model is configured (set STOA_EMBEDDINGS_URL or STOA_EMBEDDINGS_MODEL_PATH');
  });

  it('stoa mcp --help shows --agent and --conversation', async () => {
    const r = await runStoa(['mcp', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--agent <agentId>/);
    expect(r.stdout).toMatch(/--conversation <convId>/);
  });
});
