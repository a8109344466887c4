import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';
import { statFile } from './read-file.js';
import { listVersions } from './versions.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { folderTree, listFolder } from './list-files.js';
import { sweepBlobs } from './sweeper.js';
import { usage } from './usage.js';
import { readText, storedBlobs, storeViolations } from './test-invariants.js';
import { listTrash } from '../trash/list-trash.js';
import { purgeFromTrash } from '../trash/purge-trash.js';

describe.each(testDbKinds())('move and delete on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  let now = new Date('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    t = await createTestPlatform(kind, {}, { clock: () => now });
    ctx = await t.userCtx('ed', 'editor');
  });
  afterAll(() => t.cleanup());

  const rowCount = async (table: 'files' | 'file_versions') =>
    Number(
      (
        await t.platform.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', ctx.project.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('renames, and moves into a folder given with a trailing "/" keeping the name; missing folders appear', async () => {
    await putFile(ctx, { path: 'draft.md', source: 'draft' });
    const renamed = await moveFile(ctx, { from: 'draft.md', to: 'final.md' });
    expect(renamed.path).toBe('final.md');
    const moved = await moveFile(ctx, { from: 'final.md', to: 'reports/2026/' });
    expect(moved.path).toBe('reports/2026/final.md');
    expect((await folderTree(ctx)).map((d) => d.path).filter((p) => p.startsWith('reports'))).toEqual(['reports', 'reports/2026']);
    await expect(statFile(ctx, 'final.md')).rejects.toMatchObject({ code: 'not_found' });
    expect(await readText(ctx, 'reports/2026/final.md')).toBe('draft');
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('is one metadata update: same file id, versions follow, blob untouched', async () => {
    await putFile(ctx, { path: 'big/video.bin', source: Buffer.alloc(300_000, 7) });
    await putFile(ctx, { path: 'big/video.bin', source: Buffer.alloc(200_000, 8) });
    const before = await statFile(ctx, 'big/video.bin');
    const blobsBefore = await storedBlobs(t.platform);
    const files = await rowCount('files');
    const moved = await moveFile(ctx, { from: 'big/video.bin', to: 'archive/video.bin' });
    expect(moved).toMatchObject({ id: before.id, sha256: before.sha256, version: before.version, size: before.size });
    expect(await rowCount('files')).toBe(files);
    expect(await storedBlobs(t.platform)).toEqual(blobsBefore);
    expect((await listVersions(ctx, 'archive/video.bin')).map((v) => v.version)).toEqual([2, 1]);
    expect((await readText(ctx, 'archive/video.bin', 1)).length).toBe(300_000);
  });

  it('refuses when the target exists: already_exists, and nothing changed', async () => {
    await putFile(ctx, { path: 'x/a.md', source: 'A' });
    await putFile(ctx, { path: 'x/b.md', source: 'B' });
    await expect(moveFile(ctx, { from: 'x/a.md', to: 'x/b.md' })).rejects.toMatchObject({
      code: 'already_exists',
      message: 'file "x/b.md" already exists; nothing was overwritten',
    });
    await expect(moveFile(ctx, { from: 'x/a.md', to: 'x/' })).resolves.toMatchObject({ path: 'x/a.md' });
    expect(await readText(ctx, 'x/a.md')).toBe('A');
    expect(await readText(ctx, 'x/b.md')).toBe('B');
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('the file operations refuse a folder and point to the folder operations', async () => {
    await putFile(ctx, { path: 'xf/a.md', source: 'A' });
    await putFile(ctx, { path: 'xf/b.md', source: 'B' });
    await expect(moveFile(ctx, { from: 'xf', to: 'y' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('move it as a folder'),
    });
    await expect(deleteFile(ctx, { path: 'xf' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('delete it as a folder') });
    await expect(moveFile(ctx, { from: 'missing.md', to: 'y.md' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listFolder(ctx, { folder: 'xf' })).files.map((f) => f.name)).toEqual(['a.md', 'b.md']);
  });

  it('a refused move target path is path_invalid and changes nothing', async () => {
    await putFile(ctx, { path: 'xp/a.md', source: 'A' });
    await expect(moveFile(ctx, { from: 'xp/a.md', to: '../a.md' })).rejects.toMatchObject({ code: 'path_invalid' });
    await expect(moveFile(ctx, { from: 'xp/a.md', to: Array.from({ length: 11 }, () => 'd').join('/') })).rejects.toMatchObject({
      code: 'path_invalid',
      message: 'depth 11 exceeds 10',
    });
    expect(await readText(ctx, 'xp/a.md')).toBe('A');
  });

  it('folders appear with their first file and disappear with their last', async () => {
    await putFile(ctx, { path: 'f/g/h/one.md', source: '1' });
    await putFile(ctx, { path: 'f/g/two.md', source: '2' });
    expect((await folderTree(ctx)).filter((d) => d.path.startsWith('f')).map((d) => [d.path, d.fileCount])).toEqual([
      ['f', 2],
      ['f/g', 2],
      ['f/g/h', 1],
    ]);
    await deleteFile(ctx, { path: 'f/g/h/one.md' });
    expect((await folderTree(ctx)).filter((d) => d.path.startsWith('f')).map((d) => d.path)).toEqual(['f', 'f/g']);
    await moveFile(ctx, { from: 'f/g/two.md', to: 'two.md' });
    expect((await folderTree(ctx)).some((d) => d.path.startsWith('f'))).toBe(false);
    expect((await listFolder(ctx, { folder: '' })).folders.map((d) => d.name)).not.toContain('f');
  });

  it('delete frees the space at once and moves every version to the trash; the blob goes once purged, with the sweeper after grace', async () => {
    const before = await usage(ctx);
    await putFile(ctx, { path: 'del/doc.txt', source: 'first version' });
    await putFile(ctx, { path: 'del/doc.txt', source: 'second version!' });
    const f = await statFile(ctx, 'del/doc.txt');
    const v1 = (await listVersions(ctx, 'del/doc.txt'))[1]!;
    expect((await usage(ctx)).used).toBe(before.used + 15);
    await deleteFile(ctx, { path: 'del/doc.txt' });
    expect((await usage(ctx)).used).toBe(before.used);
    await expect(statFile(ctx, 'del/doc.txt')).rejects.toMatchObject({ code: 'not_found' });
    expect(
      Number(
        (
          await t.platform.db.kysely
            .selectFrom('file_versions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('file_id', '=', f.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
    // Within the grace period nothing is collected; past it, the trash still keeps the versions' blobs.
    expect((await sweepBlobs(t.platform, { graceMs: 3600_000 })).deleted).toBe(0);
    now = new Date(now.getTime() + 2 * 3600_000);
    expect((await sweepBlobs(t.platform, { graceMs: 3600_000 })).deleted).toBe(0);
    expect(await t.platform.blobs.stat(f.sha256)).not.toBeNull();
    const admin = await t.admin();
    const entry = (await listTrash(admin)).items.find((i) => i.path === 'del/doc.txt')!;
    expect(entry).toMatchObject({ size: 15, files: 1 });
    await purgeFromTrash(admin, { id: entry.id });
    const swept = await sweepBlobs(t.platform, { graceMs: 3600_000 });
    expect(swept.deleted).toBeGreaterThanOrEqual(2);
    expect(await t.platform.blobs.stat(f.sha256)).toBeNull();
    expect(await t.platform.blobs.stat(v1.sha256)).toBeNull();
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('the sweeper never collects a blob an old version still references', async () => {
    await putFile(ctx, { path: 'keep/k.txt', source: 'old bytes' });
    const old = await statFile(ctx, 'keep/k.txt');
    await putFile(ctx, { path: 'keep/k.txt', source: 'new bytes' });
    now = new Date(now.getTime() + 48 * 3600_000);
    await sweepBlobs(t.platform, { graceMs: 0 });
    expect(await t.platform.blobs.stat(old.sha256)).not.toBeNull();
    expect(await readText(ctx, 'keep/k.txt', 1)).toBe('old bytes');
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('identical content shared by two files survives deleting one of them', async () => {
    await putFile(ctx, { path: 'dup/a.txt', source: 'same bytes' });
    await putFile(ctx, { path: 'dup/b.txt', source: 'same bytes' });
    await deleteFile(ctx, { path: 'dup/a.txt' });
    now = new Date(now.getTime() + 48 * 3600_000);
    await sweepBlobs(t.platform, { graceMs: 0 });
    expect(await readText(ctx, 'dup/b.txt')).toBe('same bytes');
    // Writing bytes that were collected stores them again.
    await deleteFile(ctx, { path: 'dup/b.txt' });
    now = new Date(now.getTime() + 48 * 3600_000);
    await sweepBlobs(t.platform, { graceMs: 0 });
    await putFile(ctx, { path: 'dup/c.txt', source: 'same bytes' });
    expect(await readText(ctx, 'dup/c.txt')).toBe('same bytes');
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('a version is dropped once it has been replaced for over STOA_VERSIONS_MAX_AGE_DAYS (30); the one just replaced stays', async () => {
    const day = (n: number) => new Date(Date.parse('2027-01-01T00:00:00Z') + n * 86400_000);
    const write = async (d: number, text: string) => {
      now = day(d);
      await putFile(ctx, { path: 'age/a.txt', source: text });
      return (await listVersions(ctx, 'age/a.txt')).map((v) => v.version);
    };
    expect(await write(0, 'v1')).toEqual([1]);
    expect(await write(10, 'v2')).toEqual([2, 1]);
    expect(await write(35, 'v3')).toEqual([3, 2, 1]); // v1 was replaced 25 days ago
    expect(await write(45, 'v4')).toEqual([4, 3, 2]); // v1 was replaced 35 days ago
    // Untouched for a year, then overwritten: the previous content is still there to restore.
    expect(await write(445, 'v5')).toEqual([5, 4]);
    expect(await readText(ctx, 'age/a.txt', 4)).toBe('v4');
    expect(await storeViolations(ctx)).toEqual([]);
  });
});
