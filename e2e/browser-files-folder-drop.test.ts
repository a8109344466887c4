import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

/**
 * Drops paths of this machine on an element the way a drag from the desktop does: Chromium's DevTools protocol
 * builds the drag from real files and folders, so the page's `webkitGetAsEntry()` sees real directory entries
 * (a script's `new DataTransfer()` can only hold files).
 */
async function dropFromDesktop(page: Page, selector: string, paths: string[]): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  const cdp = await page.context().newCDPSession(page);
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
}

// Folders dragged from the desktop onto the Files page, in a real Chromium against a real server: every file
// lands under the open folder with its path inside the dropped folder, and empty folders are made too. Each test
// drops its own tree into its own folder.
describe.skipIf(!hasChromium)('web UI: a folder dropped from the desktop', () => {
  let s: UiServer;
  let page: Page;
  let dir: string;
  /** The signed-in user's own token, for asking the API what it now holds. */
  let api: (path: string) => Promise<Response>;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await createFolder(admin, { path: 'inbox' });
    await createFolder(admin, { path: 'photos' });
    ({ page } = await s.signedIn());
    const token = await page.evaluate(() => localStorage.getItem('stoa.token'));
    api = (path) => fetch(`${s.url}/api/v1/projects/default${path}`, { headers: { Authorization: `Bearer ${token}` } });
    dir = mkdtempSync(join(tmpdir(), 'stoa-folder-drop-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s?.close();
  });

  const filesUnder = async (prefix: string) => {
    const r = await api(`/files?prefix=${encodeURIComponent(prefix)}`);
    expect(r.status).toBe(200);
    return ((await r.json()) as { files: Array<{ path: string }> }).files.map((f) => f.path).sort();
  };
  const folderPaths = async () => ((await (await api('/folders/tree')).json()) as Array<{ path: string }>).map((f) => f.path);

  it('uploads a dropped folder tree with its relative paths, non-Latin names and an empty folder', async () => {
    const trip = join(dir, 'trip');
    mkdirSync(join(trip, 'days', 'день 1'), { recursive: true });
    mkdirSync(join(trip, 'days', '第二天'), { recursive: true });
    mkdirSync(join(trip, 'empty'));
    writeFileSync(join(trip, 'notes.txt'), 'notes');
    writeFileSync(join(trip, 'days', 'день 1', 'заметки.txt'), 'привет');
    writeFileSync(join(trip, 'days', '第二天', '日记.md'), '# 你好');

    await page.goto(`${s.url}/files/inbox`);
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    await dropFromDesktop(page, '.files-main', [trip]);
    await page.getByText('Uploaded 3 file(s)').waitFor();

    // In the UI: the tree knows the new folders, the empty one among them, and a deep file has its row.
    const tree = page.getByRole('tree');
    await tree.getByRole('treeitem', { name: 'trip' }).waitFor();
    await page.goto(`${s.url}/files/inbox/trip`);
    await fileRow(page, 'inbox/trip/notes.txt').waitFor();
    await page.locator('table.files').getByText('empty', { exact: true }).waitFor();
    await page.goto(`${s.url}/files/${['inbox', 'trip', 'days', 'день 1'].map(encodeURIComponent).join('/')}`);
    await fileRow(page, 'inbox/trip/days/день 1/заметки.txt').waitFor();

    // Through the API: the same paths, the bytes as on disk, and the empty folder stored as a folder.
    expect(await filesUnder('inbox/trip')).toEqual(['inbox/trip/days/день 1/заметки.txt', 'inbox/trip/days/第二天/日记.md', 'inbox/trip/notes.txt']);
    const body = await api(`/files/content?path=${encodeURIComponent('inbox/trip/days/第二天/日记.md')}&redirect=false`);
    expect(await body.text()).toBe('# 你好');
    expect(await folderPaths()).toEqual(expect.arrayContaining(['inbox/trip/empty', 'inbox/trip/days/день 1', 'inbox/trip/days/第二天']));
  });

  it('reads a dropped folder of more entries than the browser hands out at once, beside a loose file', async () => {
    // Chromium lists a dropped folder 100 entries at a time: all 130 files must arrive, not the first batch.
    const many = join(dir, 'many');
    mkdirSync(many);
    for (let i = 0; i < 130; i++) writeFileSync(join(many, `p${String(i).padStart(3, '0')}.txt`), `${i}`);
    const loose = join(dir, 'readme.txt');
    writeFileSync(loose, 'loose');

    await page.goto(`${s.url}/files/photos`);
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    await dropFromDesktop(page, '.files-main', [many, loose]);
    // The notice of the finished queue says how many arrived (a first batch alone would say 101).
    const done = page.getByRole('status').filter({ hasText: /^Uploaded \d+ file\(s\)/ });
    await done.waitFor({ timeout: 60_000 });
    expect(await done.innerText()).toMatch(/^Uploaded 131 file\(s\)/);

    const got = await filesUnder('photos');
    expect(got).toHaveLength(131);
    expect(got).toContain('photos/readme.txt');
    expect(got).toContain('photos/many/p000.txt');
    expect(got).toContain('photos/many/p129.txt');
  });

  it('uploads into the folder it is dropped on (a folder row, a tree folder), not the open one', async () => {
    await createFolder(await s.t.admin(), { path: 'letters' });
    const note = join(dir, 'на память.txt');
    writeFileSync(note, 'for the letters folder');
    const card = join(dir, 'card.txt');
    writeFileSync(card, 'for the tree folder');

    await page.goto(`${s.url}/files`);
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    await dropFromDesktop(page, 'table.files tr[data-folder="letters"]', [note]);
    await page.getByText('Uploaded 1 file(s)').waitFor();
    expect(await filesUnder('letters')).toEqual(['letters/на память.txt']);

    await dropFromDesktop(page, '[role="treeitem"][data-path="inbox"]', [card]);
    await expect.poll(() => filesUnder('inbox')).toContain('inbox/card.txt');
    // Nothing landed in the open folder (the root).
    const root = (await (await api('/folders?folder=')).json()) as { files: Array<{ path: string }> };
    expect(root.files.map((f) => f.path)).not.toContain('card.txt');
    expect(root.files.map((f) => f.path)).not.toContain('на память.txt');
  });
});
