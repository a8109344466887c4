import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { deleteFile } from './delete-file.js';
import { putFile } from './put-file.js';
import { findFiles, folderTree, listFilesRecursive, listFolder } from './list-files.js';
import { formatBytes, usage } from './usage.js';

describe('usage text (F4)', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1024, '1.0 KiB'],
    [13_002_342, '12.4 MiB'],
    [1073741824, '1.0 GiB'],
    [1536 * 1024 * 1024, '1.5 GiB'],
  ])('%i bytes → %s', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});

describe.each(testDbKinds())('listing, search and usage on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    ctx = await t.userCtx('lena', 'viewer');
    const w = await t.userCtx('wes', 'editor');
    for (let i = 0; i < 25; i++) await putFile(w, { path: `many/file-${String(i).padStart(2, '0')}.txt`, source: String(i) });
    await putFile(w, { path: 'many/sub/deep.txt', source: 'd' });
    await putFile(w, { path: 'many/other/x.txt', source: 'x' });
    await putFile(w, { path: 'docs/отчёт.md', source: 'r' });
    await putFile(w, { path: 'archive/2025/ОТЧЁТ-старый.md', source: 'o' });
    await putFile(w, { path: 'cn/年度报告.md', source: 'c' });
    await putFile(w, { path: 'misc/Report_Final.PDF', source: 'p' });
    await putFile(w, { path: 'misc/100%_done.txt', source: 'p' });
    await putFile(w, { path: 'misc/a_b.txt', source: 'p' });
    await putFile(w, { path: 'misc/axb.txt', source: 'p' });
  });
  afterAll(() => t.cleanup());

  it('a folder page lists its subfolders and files by name, with a cursor over more than one page', async () => {
    const first = await listFolder(ctx, { folder: 'many', limit: 10 });
    expect(first.folders.map((f) => [f.name, f.fileCount])).toEqual([
      ['other', 1],
      ['sub', 1],
    ]);
    expect(first.total).toBe(25);
    const names: string[] = first.files.map((f) => f.name);
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor) {
      const p = await listFolder(ctx, { folder: 'many', limit: 10, cursor });
      expect(p.folders).toEqual([]);
      names.push(...p.files.map((f) => f.name));
      cursor = p.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `file-${String(i).padStart(2, '0')}.txt`));
  });

  it('a folder page leaves out hashes and metadata unless the full fields are asked for', async () => {
    const lean = await listFolder(ctx, { folder: 'many', limit: 2 });
    expect(lean.files[0]).not.toHaveProperty('sha256');
    expect(lean.files[0]).not.toHaveProperty('metadata');
    expect(lean.files[0]).toMatchObject({ name: 'file-00.txt', size: 1, version: 1 });
    const full = await listFolder(ctx, { folder: 'many', limit: 2, fields: 'full' });
    expect(full.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(full.files[0]).toHaveProperty('metadata', null);
  });

  it('a folder cursor is opaque and good only for its own folder', async () => {
    const first = await listFolder(ctx, { folder: 'many', limit: 3 });
    expect(first.nextCursor).not.toContain('file-02');
    await expect(listFolder(ctx, { folder: 'misc', cursor: first.nextCursor })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(listFolder(ctx, { folder: 'many', cursor: 'file-02.txt' })).rejects.toMatchObject({ code: 'bad_request' });
    const c = first.nextCursor!;
    const flipped = c.slice(0, -2) + (c.at(-2) === 'A' ? 'B' : 'A') + c.slice(-1);
    expect(flipped).not.toBe(c);
    await expect(listFolder(ctx, { folder: 'many', cursor: flipped })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('paging holds while files are added and removed between pages: none twice, none missed that stayed', async () => {
    const w = await t.userCtx('wes', 'editor');
    for (const n of ['b', 'd', 'f', 'h', 'j', 'l']) await putFile(w, { path: `churn/${n}.txt`, source: n });
    const seen: string[] = [];
    let p = await listFolder(ctx, { folder: 'churn', limit: 2 });
    seen.push(...p.files.map((f) => f.name));
    // Between pages: one already seen goes, one before the cursor and one after it arrive, one not yet seen goes.
    await deleteFile(w, { path: 'churn/b.txt' });
    await putFile(w, { path: 'churn/a.txt', source: 'a' });
    await putFile(w, { path: 'churn/e.txt', source: 'e' });
    await deleteFile(w, { path: 'churn/h.txt' });
    while (p.nextCursor) {
      p = await listFolder(ctx, { folder: 'churn', limit: 2, cursor: p.nextCursor });
      seen.push(...p.files.map((f) => f.name));
    }
    expect(seen).toEqual(['b.txt', 'd.txt', 'e.txt', 'f.txt', 'j.txt', 'l.txt']);
    expect(new Set(seen).size).toBe(seen.length);
    for (const n of ['a', 'd', 'e', 'f', 'j', 'l']) await deleteFile(w, { path: `churn/${n}.txt` });
  });

  it('the root folder lists top-level folders only (folders derived from paths)', async () => {
    const root = await listFolder(ctx, { folder: '' });
    expect(root.folders.map((f) => f.path)).toEqual(['archive', 'cn', 'docs', 'many', 'misc']);
    expect(root.files).toEqual([]);
    expect((await folderTree(ctx)).map((d) => d.path)).toEqual(['archive', 'archive/2025', 'cn', 'docs', 'many', 'many/other', 'many/sub', 'misc']);
  });

  it('recursive listing by path with a cursor, under a prefix that is a whole segment', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: { files: Array<{ path: string }>; nextCursor: string | null } = await listFilesRecursive(ctx, { prefix: 'many', limit: 7, cursor });
      seen.push(...p.files.map((f) => f.path));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen.length).toBe(27);
    expect(seen).toEqual([...seen].sort());
    expect((await listFilesRecursive(ctx, { prefix: 'man' })).files).toEqual([]);
  });

  it('name search is a case-insensitive substring over the whole storage, with full paths', async () => {
    expect((await findFiles(ctx, { text: 'ОТЧЁТ' })).files.map((f) => f.path)).toEqual(['archive/2025/ОТЧЁТ-старый.md', 'docs/отчёт.md']);
    expect((await findFiles(ctx, { text: 'отчёт' })).files.map((f) => f.path)).toEqual(['archive/2025/ОТЧЁТ-старый.md', 'docs/отчёт.md']);
    expect((await findFiles(ctx, { text: 'report' })).files.map((f) => f.path)).toEqual(['misc/Report_Final.PDF']);
    expect((await findFiles(ctx, { text: '报告' })).files.map((f) => f.path)).toEqual(['cn/年度报告.md']);
    expect((await findFiles(ctx, { text: 'deep' })).files.map((f) => f.path)).toEqual(['many/sub/deep.txt']);
  });

  it('name search matches the name, not folders, and treats % and _ literally', async () => {
    expect((await findFiles(ctx, { text: 'many' })).files).toEqual([]);
    expect((await findFiles(ctx, { text: '100%' })).files.map((f) => f.path)).toEqual(['misc/100%_done.txt']);
    expect((await findFiles(ctx, { text: 'a_b' })).files.map((f) => f.path)).toEqual(['misc/a_b.txt']);
  });

  it('usage counts current sizes and reads "Used … of 1.0 GiB"', async () => {
    const u = await usage(ctx);
    expect(u.quota).toBe(1073741824);
    expect(u.files).toBe(34);
    expect(u.used).toBe(10 * 1 + 15 * 2 + 9);
    expect(u.text).toBe('Used 49 B of 1.0 GiB');
    const wes = await t.userCtx('wes', 'editor');
    await putFile(wes, { path: 'big.bin', source: Buffer.alloc(13_002_342 - 49) });
    expect((await usage(ctx)).text).toBe('Used 12.4 MiB of 1.0 GiB');
    // The other tests see the storage as seeded.
    await deleteFile(wes, { path: 'big.bin' });
    expect((await usage(ctx)).text).toBe('Used 49 B of 1.0 GiB');
  });
});
