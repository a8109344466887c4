import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listFolder, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

/** The names of the files in the table, top to bottom. */
const names = (page: Page) => page.locator('table.files tr[data-path] button.file-name').allInnerTexts();

// Files: sort by any column (the order in the URL) and tick several files to move or delete them together.
describe.skipIf(!hasChromium)('web UI: sorting and bulk actions', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('sorts by name, size and modified; the order is in the URL, survives a reload and a change of folder, and Back restores it', async () => {
    const admin = await s.t.admin();
    // Written in this order, so "modified" differs from both name and size order; a few milliseconds apart, since
    // two writes in one millisecond share a time and then sort by name.
    const apart = () => new Promise((r) => setTimeout(r, 5));
    await putFile(admin, { path: 'sorting/b-medium.txt', source: 'x'.repeat(200) });
    await apart();
    await putFile(admin, { path: 'sorting/file 10.txt', source: 'x'.repeat(10) });
    await apart();
    await putFile(admin, { path: 'sorting/file 2.txt', source: 'x'.repeat(3000) });
    await putFile(admin, { path: 'sorting/sub/inner.txt', source: 'x' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/sorting`);
    await fileRow(page, 'sorting/b-medium.txt').waitFor();
    // By name, as people read numbers: "file 2" before "file 10".
    expect(await names(page)).toEqual(['b-medium.txt', 'file 2.txt', 'file 10.txt']);
    const header = (name: string) => page.locator('table.files thead').getByRole('button', { name, exact: true });

    await header('Size').click();
    await page.waitForURL(/\?sort=size&dir=asc$/);
    expect(await names(page)).toEqual(['file 10.txt', 'b-medium.txt', 'file 2.txt']);
    expect(await page.locator('table.files th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    await header('Size').click();
    await page.waitForURL(/\?sort=size&dir=desc$/);
    expect(await names(page)).toEqual(['file 2.txt', 'b-medium.txt', 'file 10.txt']);

    await page.reload();
    await fileRow(page, 'sorting/b-medium.txt').waitFor();
    expect(await names(page)).toEqual(['file 2.txt', 'b-medium.txt', 'file 10.txt']);
    expect(await page.locator('table.files th[aria-sort]').getAttribute('aria-sort')).toBe('descending');

    await header('Modified').click();
    await page.waitForURL(/\?sort=modified&dir=asc$/);
    expect(await names(page)).toEqual(['b-medium.txt', 'file 10.txt', 'file 2.txt']);
    await page.goBack();
    await page.waitForURL(/\?sort=size&dir=desc$/);
    expect(await names(page)).toEqual(['file 2.txt', 'b-medium.txt', 'file 10.txt']);

    // Opening a folder keeps the order.
    await page.locator('table.files .folder-row').getByRole('button', { name: 'sub' }).click();
    await fileRow(page, 'sorting/sub/inner.txt').waitFor();
    expect(new URL(page.url()).search).toBe('?sort=size&dir=desc');
    await context.close();
  });

  it('moves the ticked files into a folder together, then deletes ticked files after one confirmation', async () => {
    const admin = await s.t.admin();
    for (const n of ['a.md', 'b.md', 'c.md']) await putFile(admin, { path: `bulk/${n}`, source: n });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/bulk`);
    await fileRow(page, 'bulk/a.md').getByRole('checkbox', { name: 'Select a.md' }).check();
    await fileRow(page, 'bulk/c.md').getByRole('checkbox', { name: 'Select c.md' }).check();
    const bar = page.getByRole('form', { name: '2 selected' });
    await bar.getByRole('button', { name: 'Move to folder' }).click();
    await bar.getByRole('textbox', { name: 'Folder (empty: the root)' }).fill('bulk/done');
    await bar.getByRole('button', { name: 'Move to folder' }).click();
    await page.getByRole('status').getByText('Moved 2 file(s)').waitFor();
    await fileRow(page, 'bulk/a.md').waitFor({ state: 'detached' });
    expect(await names(page)).toEqual(['b.md']);
    expect((await listFolder(admin, { folder: 'bulk/done' })).files.map((f) => f.path)).toEqual(['bulk/done/a.md', 'bulk/done/c.md']);

    await page.goto(`${s.url}/files/bulk/done`);
    await fileRow(page, 'bulk/done/a.md').waitFor();
    await page.getByRole('checkbox', { name: 'Select all files' }).check();
    await page.getByRole('form', { name: '2 selected' }).getByRole('button', { name: 'Delete selected' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete 2 file(s)? They go to the trash. bulk/done/a.md, bulk/done/c.md').waitFor();
    await dialog.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('status').getByText('Deleted 2 file(s)').waitFor();
    expect((await listFolder(admin, { folder: 'bulk/done' })).files).toEqual([]);
    await context.close();
  });

  it('a refused bulk move says which file and why, in the UI language, without the server English text', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'clash/report.md', source: 'mine' });
    await putFile(admin, { path: 'clash/target/report.md', source: 'theirs' });
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/files/clash`);
    await fileRow(page, 'clash/report.md').getByRole('checkbox').check();
    const bar = page.locator('form.bulk-bar');
    await bar.getByRole('button', { name: 'Переместить в папку' }).click();
    await bar.getByRole('textbox').fill('clash/target');
    await bar.getByRole('button', { name: 'Переместить в папку' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).trim()).toBe('clash/report.md: Файл по этому пути уже существует');
    // Nothing was overwritten (F10).
    expect((await listFolder(admin, { folder: 'clash/target' })).files.map((f) => f.size)).toEqual([6]);
    await context.close();
  });
});
