import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, baseEnv } from './helpers/run-stoa.js';

/** The ```sh block that follows `<!-- readme-test: NAME -->` in README.md, exactly as a reader copies it. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(`<!-- readme-test: ${name} -->`);
  if (at < 0) throw new Error(`README.md has no block marked "readme-test: ${name}"`);
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error(`no sh block after "readme-test: ${name}"`);
  return m[1]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runs a README block with bash from the repository root, stopping at the first failing command (`set -e`); the
 * block's background jobs are ended whatever happens. Its temporary folders go under a folder of the test's own.
 */
function runBlock(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const wrapped = `set -eo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${script}`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', wrapped], { cwd: REPO, env: baseEnv(env) });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'stoa-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Issue 32: a newcomer follows README.md as written, and nothing is left in the repository.
describe('README.md runs as written', { timeout: 300_000 }, () => {
  it('the quickstart: local mode, folders both ways, wiki, memory, search, doctor, then the same folder served and used remotely', async () => {
    const before = readdirSync(REPO).sort();
    const r = await runBlock(readmeBlock('quickstart'), { TMPDIR: scratch, PORT: String(await freePort()) });
    expect(r.code, r.out).toBe(0);
    // The second `put -r` sends nothing; the copy has the empty folder; doctor finds nothing; the link is a link.
    expect(r.out).toContain('0 files sent, 2 unchanged (skipped), 0 empty folders created, 0 failed');
    expect(r.out).toContain('copy:\ndocs\ndrafts\nindex.md\n');
    expect(r.out).toContain('No drift found.');
    expect(r.out).toContain('Repair changed nothing.');
    expect(r.out).toMatch(/http:\/\/127\.0\.0\.1:\d+\/login\?code=/);
    expect(readdirSync(REPO).sort()).toEqual(before);
  });

  it('the PostgreSQL + S3 recipe', async ({ skip }) => {
    if (!process.env.STOA_TEST_PG) skip();
    const db = `stoa_readme_${process.pid}_${Date.now()}`;
    const before = readdirSync(REPO).sort();
    try {
      const r = await runBlock(readmeBlock('postgres-s3'), {
        TMPDIR: scratch,
        DB: db,
        PORT: String(await freePort()),
        S3_PORT: String(await freePort()),
      });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('Uploaded notes/note.txt');
      expect(r.out).toContain('No drift found.');
    } finally {
      await runBlock(`psql -h 127.0.0.1 -U postgres -q -c "drop database if exists ${db} with (force)"`, {});
    }
    expect(readdirSync(REPO).sort()).toEqual(before);
  });
});
