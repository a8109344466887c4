/**
 * WebDAV with a real client: rclone syncs a local folder into the project, lists it, copies it back, and moves
 * and deletes files — as an agent sandbox or a person would with standard tools (B6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToken, listFilesRecursive, listVersions, readFileBytes, statFile } from '@stoa/core/testing';
import { createHash } from 'node:crypto';
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

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('rclone against /dav', { shuffle: false }, () => {
  it('syncs a folder up and back down with rclone, names and bytes intact', async () => {
    const src = join(dir, 'src');
    await mkdir(join(src, 'отчёты', '2026'), { recursive: true });
    await writeFile(join(src, 'README.md'), '# Проект\n');
    await writeFile(join(src, 'отчёты', '2026', '总结.txt'), 'итог 2026 — 总结\n');
    await writeFile(join(src, 'data.bin'), Buffer.alloc(300_000, 7));
    await rclone('sync', src, 'stoa:backup');
    // rclone itself compares every byte (it knows no sha256 for WebDAV, so it downloads to check).
    await rclone('check', src, 'stoa:backup', '--download');
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

  /** rclone as agents' sandboxes run it against Nextcloud-style servers: modification times travel both ways. */
  const nextcloud = (...args: string[]) =>
    run('rclone', [...args, '--retries', '1', '--low-level-retries', '1'], {
      env: { ...env, RCLONE_CONFIG_STOA_VENDOR: 'nextcloud', RCLONE_CONFIG_STOA_NEXTCLOUD_CHUNK_SIZE: '0' },
      timeout: 120_000,
    });

  it('with vendor nextcloud, a same-size edit is synced as a new version (modification times reach the server)', async () => {
    const src = join(dir, 'same-size');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'notes.txt'), 'version A\n');
    await utimes(join(src, 'notes.txt'), new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T10:00:00Z'));
    await nextcloud('sync', src, 'stoa:same-size');
    const ctx = await t.admin();
    expect((await statFile(ctx, 'same-size/notes.txt')).version).toBe(1);
    // The server keeps the client's time, so a second sync with nothing changed uploads nothing.
    await nextcloud('sync', src, 'stoa:same-size');
    expect((await statFile(ctx, 'same-size/notes.txt')).version).toBe(1);
    // Same size, newer time: rclone sees the change and the server keeps both versions.
    await writeFile(join(src, 'notes.txt'), 'version B\n');
    await utimes(join(src, 'notes.txt'), new Date('2026-01-02T10:00:00Z'), new Date('2026-01-02T10:00:00Z'));
    await nextcloud('sync', src, 'stoa:same-size');
    const after = await statFile(ctx, 'same-size/notes.txt');
    expect(after.version).toBe(2);
    expect((await listVersions(ctx, 'same-size/notes.txt')).map((v) => v.version)).toEqual([2, 1]);
    const back = join(dir, 'same-size-back');
    await nextcloud('copy', 'stoa:same-size', back);
    expect(await readFile(join(back, 'notes.txt'), 'utf8')).toBe('version B\n');
    expect((await stat(join(back, 'notes.txt'))).mtime.toISOString()).toBe('2026-01-02T10:00:00.000Z');
  });

  it('replacing a 30 MB file by sync keeps its history (no delete and upload again)', async () => {
    const src = join(dir, 'large');
    await mkdir(src, { recursive: true });
    const big = Buffer.alloc(30 * 1024 * 1024, 1);
    await writeFile(join(src, 'model.bin'), big);
    await nextcloud('sync', src, 'stoa:large');
    const ctx = await t.admin();
    expect((await statFile(ctx, 'large/model.bin')).size).toBe(big.length);
    big.fill(2, 0, 1024);
    await writeFile(join(src, 'model.bin'), Buffer.concat([big, Buffer.from('tail')]));
    await nextcloud('sync', src, 'stoa:large');
    const info = await statFile(ctx, 'large/model.bin');
    expect(info.size).toBe(big.length + 4);
    expect((await listVersions(ctx, 'large/model.bin')).map((v) => v.version)).toEqual([2, 1]);
  });

  it('with vendor nextcloud, --checksum sees a same-size edit even with the same time, and check agrees by hash', async () => {
    const src = join(dir, 'checksum');
    await mkdir(src, { recursive: true });
    const when = new Date('2026-03-01T08:00:00Z');
    await writeFile(join(src, 'a.txt'), 'aaaa\n');
    await utimes(join(src, 'a.txt'), when, when);
    await nextcloud('sync', src, 'stoa:checksum', '--checksum');
    // The server names SHA-1 (computed once per content), so rclone compares hashes without downloading.
    const sums = (await nextcloud('hashsum', 'sha1', 'stoa:checksum')).stdout.trim();
    expect(sums).toBe(`${createHash('sha1').update('aaaa\n').digest('hex')}  a.txt`);
    await nextcloud('check', src, 'stoa:checksum');
    // Same size and the same modification time: only a hash can tell them apart.
    await writeFile(join(src, 'a.txt'), 'bbbb\n');
    await utimes(join(src, 'a.txt'), when, when);
    await nextcloud('sync', src, 'stoa:checksum', '--checksum');
    const ctx = await t.admin();
    expect((await statFile(ctx, 'checksum/a.txt')).version).toBe(2);
    expect((await readFileBytes(ctx, 'checksum/a.txt')).bytes.toString()).toBe('bbbb\n');
    await nextcloud('check', src, 'stoa:checksum');
  });
});
