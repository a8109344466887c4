import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { listAudit } from '../audit/audit.js';
import { createAgent } from '../agents/agents.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';
import { statFile } from './read-file.js';
import { listVersions } from './versions.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { createFolder, deleteFolder, moveFolder, statFolder } from './folders.js';
import { folderTree, listFolder } from './list-files.js';
import { usage } from './usage.js';
import { readText, storeViolations } from './test-invariants.js';

describe.each(testDbKinds())('real folders on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    ctx = await t.userCtx('ed', 'editor');
  });
  afterAll(() => t.cleanup());

  const tree = async (prefix: string) =>
    (await folderTree(ctx)).filter((d) => d.path === prefix || d.path.startsWith(prefix + '/')).map((d) => [d.path, d.fileCount]);

  it('an empty folder exists, with its parents, shows in listings and the tree, and stays when its last file goes', async () => {
    expect(await createFolder(ctx, { path: 'empty/inner' })).toEqual({ path: 'empty/inner', name: 'inner', fileCount: 0 });
    expect(await tree('empty')).toEqual([
      ['empty', 0],
      ['empty/inner', 0],
    ]);
    expect((await listFolder(ctx, { folder: 'empty' })).folders.map((f) => f.name)).toEqual(['inner']);
    expect(await statFolder(ctx, 'empty/inner')).toMatchObject({ fileCount: 0 });
    await putFile(ctx, { path: 'empty/inner/a.md', source: 'a' });
    await deleteFile(ctx, { path: 'empty/inner/a.md' });
    expect(await tree('empty')).toEqual([
      ['empty', 0],
      ['empty/inner', 0],
    ]);
    await expect(createFolder(ctx, { path: 'empty/inner' })).rejects.toMatchObject({ code: 'already_exists' });
    await putFile(ctx, { path: 'plain.md', source: 'p' });
    await expect(createFolder(ctx, { path: 'plain.md' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(createFolder(ctx, { path: 'plain.md/sub' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(putFile(ctx, { path: 'empty/inner', source: 'x' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(createFolder(ctx, { path: '' })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  /** 30 files in three folders under `root`, one of them with two versions, and an empty folder. */
  const seed = async (root: string) => {
    for (let i = 0; i < 30; i++) await putFile(ctx, { path: `${root}/d${i % 3}/f${i}.md`, source: `v1 ${i}` });
    await putFile(ctx, { path: `${root}/d0/f0.md`, source: 'v2' });
    await createFolder(ctx, { path: `${root}/empty` });
  };

  it('moves a folder with everything in it: paths, versions, counts, usage; one audit entry', async () => {
    await seed('src');
    const before = await statFile(ctx, 'src/d0/f0.md');
    const used = (await usage(ctx)).used;
    expect(await moveFolder(ctx, { from: 'src', to: 'archive/2026/' })).toEqual({ path: 'archive/2026/src', name: 'src', fileCount: 30 });
    expect(await tree('src')).toEqual([]);
    expect(await tree('archive')).toEqual([
      ['archive', 30],
      ['archive/2026', 30],
      ['archive/2026/src', 30],
      ['archive/2026/src/d0', 10],
      ['archive/2026/src/d1', 10],
      ['archive/2026/src/d2', 10],
      ['archive/2026/src/empty', 0],
    ]);
    const after = await statFile(ctx, 'archive/2026/src/d0/f0.md');
    expect(after).toMatchObject({ id: before.id, version: 2, sha256: before.sha256 });
    expect((await listVersions(ctx, 'archive/2026/src/d0/f0.md')).map((v) => v.version)).toEqual([2, 1]);
    expect(await readText(ctx, 'archive/2026/src/d0/f0.md', 1)).toBe('v1 0');
    expect((await usage(ctx)).used).toBe(used);
    const audit = (await listAudit(await t.admin(), { action: 'folder.move' })).entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ from: 'src', to: 'archive/2026/src', details: { files: 30 } });
    expect(await storeViolations(ctx)).toEqual([]);
    await moveFolder(ctx, { from: 'archive/2026/src', to: 'src' });
    // The folders that appeared for a kept folder are kept too: they stay, empty.
    expect(await tree('archive')).toEqual([
      ['archive', 0],
      ['archive/2026', 0],
    ]);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('never overwrites: a file or folder at the target, a folder into itself, the root', async () => {
    await seed('kept');
    await createFolder(ctx, { path: 'taken' });
    await putFile(ctx, { path: 'solid.md', source: 's' });
    await expect(moveFolder(ctx, { from: 'kept', to: 'taken' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(moveFolder(ctx, { from: 'kept', to: 'solid.md' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(moveFolder(ctx, { from: 'kept', to: 'kept/d1/deeper' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(moveFolder(ctx, { from: 'nope', to: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(moveFolder(ctx, { from: 'kept', to: 'a/b/c/d/e/f/g/h/i' })).rejects.toMatchObject({ code: 'path_invalid' });
    await expect(moveFile(ctx, { from: 'solid.md', to: 'taken' })).rejects.toMatchObject({ code: 'already_exists' });
    expect((await statFolder(ctx, 'kept'))!.fileCount).toBe(30);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('deletes a folder: empty only unless recursive; then every file and version goes and the space is freed', async () => {
    await seed('gone');
    await createFolder(ctx, { path: 'hollow' });
    await expect(deleteFolder(ctx, { path: 'gone' })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await deleteFolder(ctx, { path: 'hollow' })).toEqual({ path: 'hollow', files: 0, bytes: 0 });
    const used = (await usage(ctx)).used;
    const r = await deleteFolder(ctx, { path: 'gone', recursive: true });
    expect(r.files).toBe(30);
    expect((await usage(ctx)).used).toBe(used - r.bytes);
    await expect(statFile(ctx, 'gone/d0/f0.md')).rejects.toMatchObject({ code: 'not_found' });
    expect(await statFolder(ctx, 'gone')).toBeNull();
    expect(await tree('gone')).toEqual([]);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('same rights as files: viewers may not, agents only inside their own folder', async () => {
    await createFolder(ctx, { path: 'team/notes' });
    const viewer = await t.userCtx('vi', 'viewer');
    await expect(createFolder(viewer, { path: 'v' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteFolder(viewer, { path: 'team', recursive: true })).rejects.toMatchObject({ code: 'forbidden' });
    const a = await createAgent(await t.admin(), { name: 'Own', files: 'on', read: 'own' });
    const agent = await t.agentCtx(a.id);
    await expect(moveFolder(agent, { from: 'team', to: `agents/${a.id}/team` })).rejects.toMatchObject({ code: 'forbidden' });
    await createFolder(agent, { path: `agents/${a.id}/mine/sub` });
    await moveFolder(agent, { from: `agents/${a.id}/mine`, to: `agents/${a.id}/ours` });
    expect(await deleteFolder(agent, { path: `agents/${a.id}/ours`, recursive: true })).toMatchObject({ files: 0 });
    await expect(deleteFolder(agent, { path: 'agents', recursive: true })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(statFolder(agent, 'team')).rejects.toMatchObject({ code: 'forbidden' });
    expect(await statFolder(ctx, 'team/notes')).not.toBeNull();
  });
});
