import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from '../files/put-file.js';
import { statFile } from '../files/read-file.js';
import { listVersions } from '../files/versions.js';
import { deleteFile } from '../files/delete-file.js';
import { createFolder, deleteFolder } from '../files/folders.js';
import { folderTree } from '../files/list-files.js';
import { usage } from '../files/usage.js';
import { sweepBlobs } from '../files/sweeper.js';
import { readText, storeViolations } from '../files/test-invariants.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { callTool } from '../operations/tool-ops.js';
import { createProject } from '../projects/projects.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import { openVolume } from '../volumes/open-volume.js';
import { callOperation } from '../operations/run-operation.js';
import { listAudit } from '../audit/audit.js';
import { listTrash } from './list-trash.js';
import { restoreFromTrash } from './restore-trash.js';
import { purgeFromTrash } from './purge-trash.js';
import { expireTrash } from './expire-trash.js';

describe.each(testDbKinds())('the trash on %s', (kind) => {
  let t: TestPlatform;
  let now = new Date('2026-03-01T10:00:00Z');
  const start = async (limits = {}) => {
    now = new Date('2026-03-01T10:00:00Z');
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000, ...limits }, { clock: () => now });
    return t.userCtx('ed', 'editor');
  };
  const later = (ms: number) => (now = new Date(now.getTime() + ms));
  afterEach(() => t?.cleanup());
  const entryOf = async (ctx: Ctx, path: string) => (await listTrash(ctx)).items.find((i) => i.path === path)!;

  it('a delete moves the file with its versions to the trash, frees the space at once, and a restore brings both back', async () => {
    const ed = await start();
    await putFile(ed, { path: 'docs/report.md', source: 'first' });
    await putFile(ed, { path: 'docs/report.md', source: 'second!' });
    const id = (await statFile(ed, 'docs/report.md')).id;
    expect((await usage(ed)).used).toBe(7);
    await deleteFile(ed, { path: 'docs/report.md' });
    expect((await usage(ed)).used).toBe(0);
    await expect(statFile(ed, 'docs/report.md')).rejects.toMatchObject({ code: 'not_found' });
    const item = await entryOf(ed, 'docs/report.md');
    expect(item).toMatchObject({ kind: 'file', name: 'report.md', size: 7, files: 1, deletedBy: { kind: 'user', label: 'ed' } });
    expect(Date.parse(item.expiresAt) - Date.parse(item.deletedAt)).toBe(30 * 86_400_000);
    // Its blobs outlive the sweep while it is in the trash.
    later(48 * 3600_000);
    await sweepBlobs(t.platform, { graceMs: 0 });
    const back = await restoreFromTrash(ed, { id: item.id });
    expect(back).toMatchObject({ path: 'docs/report.md', beside: false, size: 7 });
    expect(await statFile(ed, 'docs/report.md')).toMatchObject({ id, version: 2 });
    expect((await listVersions(ed, 'docs/report.md')).map((v) => v.version)).toEqual([2, 1]);
    expect(await readText(ed, 'docs/report.md', 1)).toBe('first');
    expect((await usage(ed)).used).toBe(7);
    expect((await listTrash(ed)).items).toEqual([]);
    const actions = (await listAudit(await t.admin())).entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['file.delete', 'trash.restore']));
    expect(await storeViolations(ed)).toEqual([]);
  });

  it('restores beside a path that is taken, and makes a parent folder that is gone again', async () => {
    const ed = await start();
    await putFile(ed, { path: 'a/b/report.md', source: 'old' });
    await deleteFile(ed, { path: 'a/b/report.md' });
    const first = await entryOf(ed, 'a/b/report.md');
    await putFile(ed, { path: 'a/b/report.md', source: 'new' });
    await deleteFile(ed, { path: 'a/b/report.md' });
    const second = (await listTrash(ed)).items.find((i) => i.id !== first.id)!;
    await putFile(ed, { path: 'a/b/report.md', source: 'newest' });
    expect(await restoreFromTrash(ed, { id: first.id })).toMatchObject({
      path: 'a/b/report (restored).md',
      beside: true,
      text: expect.stringContaining('is taken'),
    });
    expect(await restoreFromTrash(ed, { id: second.id })).toMatchObject({ path: 'a/b/report (restored 2).md', beside: true });
    expect(await readText(ed, 'a/b/report.md')).toBe('newest');
    expect(await readText(ed, 'a/b/report (restored).md')).toBe('old');
    expect(await readText(ed, 'a/b/report (restored 2).md')).toBe('new');
    // The folder above is gone: restoring makes it again.
    await putFile(ed, { path: 'x/y/z.md', source: 'z' });
    await deleteFile(ed, { path: 'x/y/z.md' });
    expect((await folderTree(ed)).some((d) => d.path.startsWith('x'))).toBe(false);
    await restoreFromTrash(ed, { id: (await entryOf(ed, 'x/y/z.md')).id });
    expect((await folderTree(ed)).filter((d) => d.path.startsWith('x')).map((d) => d.path)).toEqual(['x', 'x/y']);
    expect(await storeViolations(ed)).toEqual([]);
  });

  it('a folder goes as one entry with everything in it, and comes back whole, beside itself when its name is taken', async () => {
    const ed = await start();
    await putFile(ed, { path: 'proj/a.md', source: 'A' });
    await putFile(ed, { path: 'proj/sub/b.md', source: 'B1' });
    await putFile(ed, { path: 'proj/sub/b.md', source: 'B2' });
    await createFolder(ed, { path: 'proj/empty' });
    expect(await deleteFolder(ed, { path: 'proj', recursive: true })).toMatchObject({ files: 2, bytes: 3 });
    expect((await usage(ed)).used).toBe(0);
    const [entry, ...rest] = (await listTrash(ed)).items;
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ kind: 'folder', path: 'proj', files: 2, size: 3 });
    await createFolder(ed, { path: 'proj' });
    expect(await restoreFromTrash(ed, { id: entry!.id })).toMatchObject({ path: 'proj (restored)', files: 2, beside: true });
    expect(await readText(ed, 'proj (restored)/sub/b.md', 1)).toBe('B1');
    expect(await readText(ed, 'proj (restored)/a.md')).toBe('A');
    expect((await folderTree(ed)).map((d) => d.path)).toEqual(expect.arrayContaining(['proj (restored)/empty', 'proj (restored)/sub']));
    expect((await usage(ed)).used).toBe(3);
    expect(await storeViolations(ed)).toEqual([]);
  });

  it('a restore that does not fit the quota is refused and leaves the entry in the trash', async () => {
    const ed = await start({ quotaBytes: 10 });
    await putFile(ed, { path: 'a.txt', source: '12345678' });
    await deleteFile(ed, { path: 'a.txt' });
    await putFile(ed, { path: 'b.txt', source: '12345678' });
    const item = await entryOf(ed, 'a.txt');
    await expect(restoreFromTrash(ed, { id: item.id })).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect((await listTrash(ed)).items.map((i) => i.id)).toEqual([item.id]);
    await expect(statFile(ed, 'a.txt')).rejects.toMatchObject({ code: 'not_found' });
    expect(await storeViolations(ed)).toEqual([]);
  });

  it('who sees and does what: a viewer lists but may not restore or purge, an editor restores, an admin purges; other projects see nothing', async () => {
    const ed = await start();
    const admin = await t.admin();
    const viewer = await t.userCtx('vi', 'viewer');
    await putFile(ed, { path: 'v.md', source: 'v' });
    await deleteFile(ed, { path: 'v.md' });
    const listed = await listTrash(viewer);
    expect(listed).toMatchObject({ mayRestore: false, mayPurge: false });
    const id = listed.items[0]!.id;
    await expect(restoreFromTrash(viewer, { id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(purgeFromTrash(viewer, { id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(purgeFromTrash(ed, { id })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await listTrash(ed)).toMatchObject({ mayRestore: true, mayPurge: false });
    expect(await listTrash(admin)).toMatchObject({ mayRestore: true, mayPurge: true });
    const other = await createProject(t.platform, admin.actor, { name: 'other' });
    const otherAdmin = await contextFor(t.platform, await localAdminPrincipal(t.platform), { project: other.id });
    expect((await listTrash(otherAdmin)).items).toEqual([]);
    await expect(restoreFromTrash(otherAdmin, { id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(purgeFromTrash(otherAdmin, { id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await purgeFromTrash(admin, { id })).toMatchObject({ path: 'v.md', purged: true });
    expect((await listTrash(admin)).items).toEqual([]);
    expect((await listAudit(admin)).entries.some((e) => e.action === 'trash.purge' && e.path === 'v.md')).toBe(true);
  });

  it('an agent deletes through its tool into the trash and sees there only what it may read', async () => {
    const ed = await start();
    const admin = await t.admin();
    const own = await createAgent(admin, { name: 'Own', files: 'on', read: 'own' });
    const wide = await createAgent(admin, { name: 'Wide', files: 'on' });
    const conv = await createConversation(admin, { members: [own.id, wide.id] });
    await putFile(ed, { path: 'shared/plan.md', source: 'plan' });
    await deleteFile(ed, { path: 'shared/plan.md' });
    const agent = await t.agentCtx(own.id, conv.id);
    await callTool(agent, 'ws_write_file', { path: 'notes.md', content: 'mine' });
    expect((await callTool(agent, 'ws_delete_file', { path: 'notes.md' })).refused).toBe(false);
    expect((await usage(ed)).used).toBe(0);
    const seen = (await listTrash(agent)).items.map((i) => i.path);
    expect(seen).toEqual([`agents/${own.id}/notes.md`]);
    const shared = await entryOf(ed, 'shared/plan.md');
    await expect(restoreFromTrash(agent, { id: shared.id })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listTrash(await t.agentCtx(wide.id, conv.id))).items.map((i) => i.path).sort()).toEqual([`agents/${own.id}/notes.md`, 'shared/plan.md']);
    const mine = (await listTrash(agent)).items[0]!;
    expect(mine).toMatchObject({ deletedBy: { kind: 'agent', label: 'Own' } });
    await expect(purgeFromTrash(agent, { id: mine.id })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await restoreFromTrash(agent, { id: mine.id })).toMatchObject({ path: `agents/${own.id}/notes.md` });
    expect(await readText(ed, `agents/${own.id}/notes.md`)).toBe('mine');
    expect(await storeViolations(ed)).toEqual([]);
  });

  it('expiry drops entries past STOA_TRASH_DAYS, then the oldest while over the cap; the sweep then collects their blobs', async () => {
    const ed = await start();
    t.platform.config.trash = { days: 30, maxBytes: 25 };
    const del = async (path: string, bytes: number) => {
      await putFile(ed, { path, source: path[0]!.repeat(bytes) });
      const sha = (await statFile(ed, path)).sha256;
      await deleteFile(ed, { path });
      later(86_400_000);
      return sha;
    };
    const oldest = await del('a.bin', 10);
    later(30 * 86_400_000);
    const b = await del('b.bin', 10);
    const c = await del('c.bin', 10);
    const d = await del('d.bin', 10);
    // a is past 30 days; of b, c, d (30 bytes) the oldest goes to get under 25.
    expect(await expireTrash(t.platform)).toEqual({ expired: 1, overCap: 1 });
    expect((await listTrash(ed)).items.map((i) => i.path)).toEqual(['d.bin', 'c.bin']);
    later(2 * 3600_000);
    await sweepBlobs(t.platform, { graceMs: 3600_000 });
    expect(await t.platform.blobs.stat(oldest)).toBeNull();
    expect(await t.platform.blobs.stat(b)).toBeNull();
    expect(await t.platform.blobs.stat(c)).not.toBeNull();
    expect(await t.platform.blobs.stat(d)).not.toBeNull();
    const purges = (await listAudit(await t.admin())).entries.filter((e) => e.action === 'trash.purge').map((e) => [e.path, e.details?.reason]);
    expect(purges.sort()).toEqual([
      ['a.bin', 'expired'],
      ['b.bin', 'over_cap'],
    ]);
  });

  it("a person's own files have their own trash, reached by the volume's ID through the operation table", async () => {
    const ed = await start();
    const principal = { kind: 'user' as const, userId: (ed.actor as { userId: string }).userId, name: 'ed', superuser: false };
    const { volumeId } = await openVolume(t.platform, principal, { catalog: 'users' });
    const mine = await contextFor(t.platform, principal, { project: volumeId });
    await putFile(mine, { path: 'diary.md', source: 'dear diary' });
    await putFile(ed, { path: 'team.md', source: 'team' });
    await deleteFile(mine, { path: 'diary.md' });
    await deleteFile(ed, { path: 'team.md' });
    const call = { platform: t.platform, principal };
    const listed = (await callOperation(call, 'trash.list', { project: volumeId })) as Awaited<ReturnType<typeof listTrash>>;
    expect(listed).toMatchObject({ mayRestore: true, mayPurge: true, items: [{ path: 'diary.md' }] });
    expect((await listTrash(ed)).items.map((i) => i.path)).toEqual(['team.md']);
    const id = listed.items[0]!.id;
    // Another person's trash, and an ID of another volume, are unknown.
    const olga = await t.userCtx('olga', 'editor');
    const other = { kind: 'user' as const, userId: (olga.actor as { userId: string }).userId, name: 'olga', superuser: false };
    await expect(callOperation({ platform: t.platform, principal: other }, 'trash.list', { project: volumeId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(callOperation(call, 'trash.restore', { project: 'default', id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await callOperation(call, 'trash.restore', { project: volumeId, id })).toMatchObject({ path: 'diary.md' });
    expect(await readText(mine, 'diary.md')).toBe('dear diary');
    expect(await storeViolations(mine)).toEqual([]);
  });

  it('of concurrent restores of one entry exactly one restores it', async () => {
    const ed = await start();
    await putFile(ed, { path: 'race.md', source: 'race' });
    await deleteFile(ed, { path: 'race.md' });
    const { id } = await entryOf(ed, 'race.md');
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => restoreFromTrash(ed, { id })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'not_found' });
    expect(await readText(ed, 'race.md')).toBe('race');
    expect((await usage(ed)).used).toBe(4);
    expect(await storeViolations(ed)).toEqual([]);
  });
});
