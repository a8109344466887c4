import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createConversation } from '../conversations/conversations.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from '../files/put-file.js';
import { deleteFile } from '../files/delete-file.js';
import { moveFile } from '../files/move-file.js';
import { createFolder } from '../files/folders.js';
import { putPage } from '../wiki/put-page.js';
import { listFavourites, listRecent, recordOpened, starItem, unstarItem, MAX_RECENT } from './favourites.js';

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe.each(testDbKinds())('favourites and recent items (%s)', (kind) => {
  let t: TestPlatform;
  let tick = Date.parse('2026-12-01T10:00:00Z');
  beforeAll(async () => {
    // Each reading of the clock is a second later, so "newest first" has one answer.
    t = await createTestPlatform(kind, {}, { clock: () => new Date((tick += 1000)) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('stars files, folders and pages per person; a moved file is listed where it is now', async () => {
    const ann = await t.userCtx('ann', 'editor');
    const ben = await t.userCtx('ben', 'editor');
    await putFile(ann, { path: 'fav/plan.md', source: '# Plan' });
    await createFolder(ann, { path: 'fav/empty' });
    await putPage(ann, { path: 'fav/handbook', title: 'Handbook', text: 'hello' });
    await starItem(ann, { kind: 'file', path: 'fav/plan.md' });
    await starItem(ann, { kind: 'folder', path: 'fav/empty' });
    await starItem(ann, { kind: 'page', path: 'fav/handbook' });
    await starItem(ann, { kind: 'page', path: 'fav/handbook' });
    expect((await listFavourites(ann)).map((i) => [i.kind, i.path, i.name])).toEqual([
      ['page', 'fav/handbook', 'Handbook'],
      ['folder', 'fav/empty', 'empty'],
      ['file', 'fav/plan.md', 'plan.md'],
    ]);
    expect(await listFavourites(ben)).toEqual([]);
    await moveFile(ann, { from: 'fav/plan.md', to: 'fav/plan-2026.md' });
    expect((await listFavourites(ann)).find((i) => i.kind === 'file')?.path).toBe('fav/plan-2026.md');
    await unstarItem(ann, { kind: 'folder', path: 'fav/empty' });
    expect((await listFavourites(ann)).map((i) => i.kind)).toEqual(['page', 'file']);
  });

  it('never lists a deleted item, nor one the person may no longer read', async () => {
    const admin = await t.admin();
    const cleo = await t.userCtx('cleo', 'admin');
    const channel = (await createConversation(admin, { channel: 'board' })).id;
    await putPage(admin, { path: 'board/minutes', title: 'Minutes', text: 'secret', channel });
    await putFile(admin, { path: 'gone/old.txt', source: 'x' });
    // An admin sees every channel's pages, so Cleo may star this one.
    await starItem(cleo, { kind: 'page', path: 'board/minutes' });
    await starItem(cleo, { kind: 'file', path: 'gone/old.txt' });
    await recordOpened(cleo, { kind: 'page', path: 'board/minutes' });
    expect((await listFavourites(cleo)).map((i) => i.path)).toEqual(['gone/old.txt', 'board/minutes']);
    await deleteFile(admin, { path: 'gone/old.txt' });
    // A file at the same path again is another file: the star does not come back to it.
    await putFile(admin, { path: 'gone/old.txt', source: 'new' });
    expect((await listFavourites(cleo)).map((i) => i.path)).toEqual(['board/minutes']);
    // Cleo is an editor now, outside the channel: the page is neither listed nor can it be starred or recorded.
    const editor = await t.userCtx('cleo', 'editor');
    expect(await listFavourites(editor)).toEqual([]);
    expect(await listRecent(editor)).toEqual([]);
    expect(await code(starItem(editor, { kind: 'page', path: 'board/minutes' }))).toBe('not_found');
    expect(await code(recordOpened(editor, { kind: 'page', path: 'board/minutes' }))).toBe('not_found');
    // Back as admin, the star is still there: nothing was lost, it was only not shown.
    const again = await t.userCtx('cleo', 'admin');
    expect((await listFavourites(again)).map((i) => i.path)).toEqual(['board/minutes']);
  });

  it('refuses agents and missing items with the same answer as unreadable ones', async () => {
    const admin = await t.admin();
    const dee = await t.userCtx('dee', 'viewer');
    const a = await createAgent(admin, { name: 'Stars' });
    const agent = await t.agentCtx(a.id);
    expect(await code(listFavourites(agent))).toBe('forbidden');
    expect(await code(starItem(dee, { kind: 'file', path: 'nowhere.txt' }))).toBe('not_found');
    expect(await code(starItem(dee, { kind: 'file', path: '../x' }))).toBe('path_invalid');
    expect(await code(unstarItem(dee, { kind: 'file', path: 'nowhere.txt' }))).toBe('ok');
  });

  it('lists what was opened lately, the latest first, and forgets beyond the cap', async () => {
    const eve = await t.userCtx('eve', 'viewer');
    const admin = await t.admin();
    await putFile(admin, { path: 'recent/a.md', source: 'a' });
    await putFile(admin, { path: 'recent/b.md', source: 'b' });
    await putPage(admin, { path: 'recent/page', text: 'p' });
    await recordOpened(eve, { kind: 'file', path: 'recent/a.md' });
    await recordOpened(eve, { kind: 'page', path: 'recent/page' });
    await recordOpened(eve, { kind: 'file', path: 'recent/b.md' });
    await recordOpened(eve, { kind: 'file', path: 'recent/a.md' });
    expect((await listRecent(eve)).map((i) => i.path)).toEqual(['recent/a.md', 'recent/b.md', 'recent/page']);
    for (let i = 0; i < MAX_RECENT; i++) {
      await putFile(admin, { path: `recent/many/${i}.txt`, source: String(i) });
      await recordOpened(eve, { kind: 'file', path: `recent/many/${i}.txt` });
    }
    const all = await listRecent(eve, { limit: 50 });
    expect(all).toHaveLength(MAX_RECENT);
    expect(all.map((i) => i.path)).not.toContain('recent/page');
    expect(all[0]!.path).toBe(`recent/many/${MAX_RECENT - 1}.txt`);
  });
});
