/**
 * WebDAV with a real client: rclone syncs a local folder into the project, lists it, copies it back, and moves
 * and deletes files — as an agent sandbox or a person would with standard tools (B6).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToken, listFilesRecursive, statFile } from '@stoa/core';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { buildApp } from '@stoa/server';
import type { FastifyInstance } from 'fastify';

const run = promisify(execFile);
let t: TestPlatform;
let app: FastifyInstance;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  t = await createTestPlatform('sqlite');
  app = await buildApp({ platform: t.platform, webRoot: null });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = (await createToken(await t.admin(), { user: 'admin' })).token;
  dir = await mkdtemp(join(tmpdir(), 'stoa-rclone-'));
  env = {
    ...process.env,
    RCLONE_CONFIG_STOA_TYPE: 'webdav',
    RCLONE_CONFIG_STOA_URL: `${base}/dav`,
    RCLONE_CONFIG_STOA_VENDOR: 'other',
    RCLONE_CONFIG_STOA_BEARER_TOKEN: token,
    RCLONE_CONFIG: join(dir, 'none.conf'),
  };
});

afterAll(async () => {
  await app.close();
  await t.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const rclone = (...args: string[]) => run('rclone', [...args, '--retries', '1', '--low-level-retries', '1'], { env, timeout: 30_000 });

it('syncs a folder up and back down with rclone, names and bytes intact', async () => {
  const src = join(dir, 'src');
  await mkdir(join(src, 'отчёты', '2026'), { recursive: true });
  await writeFile(join(src, 'README.md'), '# Проект\n');
  await writeFile(join(src, 'отчёты', '2026', '总结.txt'), 'итог 2026 — 总结\n');
  await writeFile(join(src, 'data.bin'), Buffer.alloc(300_000, 7));
  await rclone('sync', src, 'stoa:backup');
  const { files } = await listFilesRecursive(await t.admin(), { prefix: 'backup' });
  expect(files.map((f) => f.path).sort()).toEqual(['backup/README.md', 'backup/data.bin', 'backup/отчёты/2026/总结.txt']);
  const ls = (await rclone('lsf', '-R', 'stoa:backup')).stdout.split('\n').filter(Boolean).sort();
  expect(ls).toEqual(['README.md', 'data.bin', 'отчёты/', 'отчёты/2026/', 'отчёты/2026/总结.txt']);
  const back = join(dir, 'back');
  await rclone('copy', 'stoa:backup', back);
  expect(await readFile(join(back, 'отчёты', '2026', '总结.txt'), 'utf8')).toBe('итог 2026 — 总结\n');
  expect((await readFile(join(back, 'data.bin'))).equals(Buffer.alloc(300_000, 7))).toBe(true);
});

it('moves and deletes single files with rclone', async () => {
  await rclone('moveto', 'stoa:backup/README.md', 'stoa:backup/docs/README.md');
  const ctx = await t.admin();
  expect((await statFile(ctx, 'backup/docs/README.md')).size).toBe(Buffer.byteLength('# Проект\n'));
  await expect(statFile(ctx, 'backup/README.md')).rejects.toMatchObject({ code: 'not_found' });
  await rclone('deletefile', 'stoa:backup/data.bin');
  await expect(statFile(ctx, 'backup/data.bin')).rejects.toMatchObject({ code: 'not_found' });
});
