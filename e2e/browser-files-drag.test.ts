import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFolder, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Files: drag a row (or all ticked rows) onto a folder row, a folder in the tree or a breadcrumb level to move
// it there (issue 13); a refusal is shown from the translated error code.
describe.skipIf(!hasChromium)('web UI: drag-and-drop move', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  const paths = async (folder: string) => (await listFolder(await s.t.admin(), { folder })).files.map((f) => f.path);

  it('moves a dragged row onto a folder row, ticked rows onto a tree folder, and a row onto a breadcrumb level', async () => {
    const admin = await s.t.admin();
    for (const n of ['a.md', 'b.md', 'c.md', 'd.md']) await putFile(admin, { path: `drag/${n}`, source: n });
    await putFile(admin, { path: 'drag/inbox/keep.txt', source: 'k' });
    await putFile(admin, { path: 'drag-archive/old.txt', source: 'o' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/drag`);
    await fileRow(page, 'drag/a.md').waitFor();

    // One row onto a folder row of the table.
    await fileRow(page, 'drag/a.md').dragTo(page.locator('table.files tr.folder-row[data-folder="drag/inbox"]'));
    await page.getByRole('status').getByText('Moved 1 file(s)').waitFor();
    await fileRow(page, 'drag/a.md').waitFor({ state: 'detached' });
    expect(await paths('drag/inbox')).toEqual(['drag/inbox/a.md', 'drag/inbox/keep.txt']);

    // Two ticked rows, dragged by one of them, onto a folder of the tree.
    await fileRow(page, 'drag/b.md').getByRole('checkbox', { name: 'Select b.md' }).check();
    await fileRow(page, 'drag/c.md').getByRole('checkbox', { name: 'Select c.md' }).check();
    await fileRow(page, 'drag/c.md').dragTo(page.getByRole('treeitem', { name: 'drag-archive' }));
    await page.getByRole('status').getByText('Moved 2 file(s)').waitFor();
    expect(await paths('drag-archive')).toEqual(['drag-archive/b.md', 'drag-archive/c.md', 'drag-archive/old.txt']);
    expect(await paths('drag')).toEqual(['drag/d.md']);

    // A row onto the root of the breadcrumb.
    await fileRow(page, 'drag/d.md').dragTo(page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Project files' }));
    await page.getByRole('status').getByText('Moved 1 file(s)').waitFor();
    expect(await paths('')).toContain('d.md');
    await context.close();
  });

  it('shows a refused move in the user language, and the file stays', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'clash/same.txt', source: 'here' });
    await putFile(admin, { path: 'clash/into/same.txt', source: 'there' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/clash`);
    await fileRow(page, 'clash/same.txt').dragTo(page.locator('table.files tr.folder-row[data-folder="clash/into"]'));
    await page.getByRole('alert').getByText('clash/same.txt: A file already exists there').waitFor();
    expect(await paths('clash')).toEqual(['clash/same.txt']);
    await context.close();
  });
});
