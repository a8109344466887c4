/**
 * WebDAV with cadaver, a command-line client nobody here wrote (Debian package `cadaver`): the LOCK-then-PUT
 * sequence of davfs2, Finder and LibreOffice makes one version, not an empty one and the real one (issue 28).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createToken, listVersions } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { buildApp } from '@stoa/server';
import type { FastifyInstance } from 'fastify';

const hasCadaver = await promisify(execFile)('sh', ['-c', 'command -v cadaver']).then(
  () => true,
  () => false,
);
let t: TestPlatform;
let app: FastifyInstance;
let base: string;
let home: string;

beforeAll(async () => {
  if (!hasCadaver) return;
  t = await createTestPlatform('sqlite');
  app = await buildApp({ platform: t.platform, webRoot: null });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = (await createToken(await t.admin(), { user: 'admin' })).token;
  // cadaver takes its credentials from ~/.netrc: the token is the password.
  home = await mkdtemp(join(tmpdir(), 'stoa-cadaver-'));
  await writeFile(join(home, '.netrc'), `machine 127.0.0.1 login admin password ${token}\n`, { mode: 0o600 });
});

afterAll(async () => {
  if (!hasCadaver) return;
  await app.close();
  await t.cleanup();
  await rm(home, { recursive: true, force: true });
});

/** Runs cadaver on /dav/ with `script` as its commands; its transcript. */
function cadaver(script: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('cadaver', [`${base}/dav/`], { cwd: home, env: { ...process.env, HOME: home }, timeout: 60_000 }, (e, out) =>
      e ? reject(e) : resolve(out),
    );
    child.stdin!.end([...script, 'quit', ''].join('\n'));
  });
}

it.skipIf(!hasCadaver)('lock, put and unlock a new file make one version; the next put makes the second', async () => {
  await writeFile(join(home, 'report.txt'), 'first real content\n');
  const out = await cadaver(['mkcol docs', 'lock docs/report.txt', 'put report.txt docs/report.txt', 'unlock docs/report.txt']);
  expect(out).toMatch(/Locking `docs\/report.txt': succeeded/);
  expect(out).toMatch(/Uploading report.txt to `\/dav\/docs\/report.txt':.*succeeded/);
  const ctx = await t.admin();
  expect((await listVersions(ctx, 'docs/report.txt')).map((v) => [v.version, v.size])).toEqual([[1, 19]]);

  await writeFile(join(home, 'report.txt'), 'second\n');
  await cadaver(['lock docs/report.txt', 'put report.txt docs/report.txt', 'unlock docs/report.txt', 'get docs/report.txt back.txt']);
  expect((await listVersions(ctx, 'docs/report.txt')).map((v) => [v.version, v.size])).toEqual([
    [2, 7],
    [1, 19],
  ]);
  expect(await readFile(join(home, 'back.txt'), 'utf8')).toBe('second\n');
});
