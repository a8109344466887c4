import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createConversation, deleteFile, getMemory, putFile, putPage, setMemory, statFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

const panelOf = (page: Page) => page.getByRole('complementary', { name: 'Preview' });

/** Opens a file's preview from its folder's table. */
async function openPreview(page: Page, url: string, path: string): Promise<void> {
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  await page.goto(`${url}/files${folder ? `/${folder}` : ''}`);
  await fileRow(page, path)
    .getByRole('button', { name: path.slice(path.lastIndexOf('/') + 1), exact: true })
    .click();
  await panelOf(page).locator('.preview-path', { hasText: path }).waitFor();
}

// Issue 31 item 5 (working like Nextcloud and Outline), in a real Chromium against a real server: the preview in
// the address, markdown and CSV rendered, versions shown and compared, text files edited with the wiki's conflict
// rule, favourites and recent items, memory versions restored.
describe.skipIf(!hasChromium)('web UI: files like the peers', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('keeps the open preview in the URL: reload, Back and Forward and a shared link open it; closing takes it off', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'url/notes one.txt', source: 'first notes' });
    const { context, page } = await s.signedIn();
    await openPreview(page, s.url, 'url/notes one.txt');
    await page.waitForURL(/\/files\/url\?preview=notes(\+|%20)one\.txt$/);
    const link = page.url();
    await page.reload();
    await panelOf(page).locator('pre.preview-text', { hasText: 'first notes' }).waitFor();
    await page.goBack();
    await panelOf(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    await page.goForward();
    await panelOf(page).locator('pre.preview-text', { hasText: 'first notes' }).waitFor();
    await panelOf(page).getByRole('button', { name: 'Close' }).click();
    await panelOf(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/files/url');
    // Someone else opening the shared link sees the same preview.
    const other = await s.signedIn({ as: await s.t.userCtx('ulla', 'viewer') });
    await other.page.goto(link);
    await panelOf(other.page).locator('pre.preview-text', { hasText: 'first notes' }).waitFor();
    await other.context.close();
    await context.close();
  });

  it('renders markdown safely and CSV as a table (quotes, commas, line breaks), with the raw text a toggle away', async () => {
    const admin = await s.t.admin();
    await putFile(admin, {
      path: 'render/plan.md',
      source: '# Plan\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[bad](javascript:alert(1)) <img src=x onerror="window.__pwned=1">\n',
    });
    const rows = ['name,note', '"Smith, J","said ""hi""\nthen left"', ...Array.from({ length: 600 }, (_, i) => `row${i},${i}`)];
    await putFile(admin, { path: 'render/people.csv', source: rows.join('\r\n') });
    const { context, page } = await s.signedIn();
    await openPreview(page, s.url, 'render/plan.md');
    const panel = panelOf(page);
    await panel.locator('.preview-rendered h2', { hasText: 'Plan' }).waitFor();
    expect(await panel.locator('.preview-rendered td').allInnerTexts()).toEqual(['1', '2']);
    // The javascript: link is not a link to it, and raw HTML is text, never an element.
    expect(await panel.locator('.preview-rendered a[href^="javascript"]').count()).toBe(0);
    expect(await panel.locator('.preview-rendered img').count()).toBe(0);
    await panel.getByText('<img src=x onerror="window.__pwned=1">').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await panel.getByRole('button', { name: 'Raw text' }).click();
    await panel.locator('pre.preview-text', { hasText: '| a | b |' }).waitFor();
    await panel.getByRole('button', { name: 'Raw text' }).click();
    await panel.locator('.preview-rendered h2').waitFor();

    await openPreview(page, s.url, 'render/people.csv');
    const table = panel.locator('.preview-table table');
    await table.waitFor();
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['name', 'note']);
    expect(await table.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['Smith, J', 'said "hi"\nthen left']);
    await panel.getByText('Showing the first 500 rows.').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(500);
    await panel.getByRole('button', { name: 'Raw text' }).click();
    await panel.locator('pre.preview-text', { hasText: 'row599,599' }).waitFor();
    await context.close();
  });

  it('shows an earlier version, compares two as a diff, and restores one', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'ver/terms.txt', source: 'Payment in 30 days.\nDelivery free.\n' });
    await putFile(admin, { path: 'ver/terms.txt', source: 'Payment in 45 days.\nDelivery free.\n' });
    await putFile(admin, { path: 'ver/terms.txt', source: 'Payment in 45 days.\nDelivery free.\nReturns within 14 days.\n' });
    const { context, page } = await s.signedIn();
    await openPreview(page, s.url, 'ver/terms.txt');
    const panel = panelOf(page);
    await panel.getByRole('button', { name: 'Show version 1' }).click();
    await panel.locator('.version-shown pre', { hasText: 'Payment in 30 days.' }).waitFor();
    await panel.getByRole('button', { name: 'Back to the current version' }).click();
    await panel.locator('pre.preview-text', { hasText: 'Returns within 14 days.' }).waitFor();

    await panel.getByRole('checkbox', { name: 'Compare version 3' }).check();
    await panel.getByRole('checkbox', { name: 'Compare version 1' }).check();
    await panel.getByRole('button', { name: 'Compare', exact: true }).click();
    const diff = panel.getByRole('region', { name: 'Changes from version 1 to version 3' });
    await diff.locator('.diff').waitFor();
    expect(await diff.locator('.removed').allInnerTexts()).toEqual(['- Payment in 30 days.']);
    expect(await diff.locator('.added').allInnerTexts()).toEqual(['+ Payment in 45 days.', '+ Returns within 14 days.']);
    await diff.getByRole('button', { name: 'Back to the current version' }).click();

    await panel.locator('tr[data-version="1"]').getByRole('button', { name: 'Restore' }).click();
    await panel.locator('tr[data-version="4"]').waitFor();
    await panel.locator('pre.preview-text', { hasText: 'Payment in 30 days.' }).waitFor();
    expect((await statFile(admin, 'ver/terms.txt')).version).toBe(4);
    await context.close();
  });

  it('edits a text file; a save after someone else saved shows the conflict view, and the merge of both is saved', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'edit/todo.md', source: 'Buy milk.\n' });
    const { context, page } = await s.signedIn();
    await openPreview(page, s.url, 'edit/todo.md');
    const panel = panelOf(page);
    await panel.getByRole('button', { name: 'Edit', exact: true }).click();
    const text = panel.getByRole('textbox', { name: 'Text of todo.md' });
    await text.fill('Buy milk.\nCall the bank.\n');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.locator('.preview-rendered', { hasText: 'Call the bank.' }).waitFor();
    expect((await statFile(admin, 'edit/todo.md')).version).toBe(2);

    await panel.getByRole('button', { name: 'Edit', exact: true }).click();
    await text.fill('Buy oat milk.\nCall the bank.\n');
    // Meanwhile someone saves the file: the browser's save is refused and nothing of either is lost.
    await putFile(admin, { path: 'edit/todo.md', source: 'Buy milk.\nCall the bank.\nWater the plants.\n' });
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = panel.getByRole('region', { name: 'Your changes and theirs' });
    await conflict.getByRole('alert').waitFor();
    const merge = conflict.getByRole('textbox', { name: 'Result to save (you can edit it)' });
    expect(await merge.inputValue()).toBe('Buy oat milk.\nCall the bank.\nWater the plants.\n');
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.locator('.preview-rendered', { hasText: 'Water the plants.' }).waitFor();
    const f = await statFile(admin, 'edit/todo.md');
    expect(f.version).toBe(4);

    // A viewer gets no Edit button.
    const viewer = await s.signedIn({ as: await s.t.userCtx('vera', 'viewer') });
    await openPreview(viewer.page, s.url, 'edit/todo.md');
    await panelOf(viewer.page).locator('.preview-rendered').waitFor();
    expect(await panelOf(viewer.page).getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await viewer.context.close();
    await context.close();
  });

  it('stars files, folders and pages into Favourites, lists what was opened in Recent, and drops what is deleted', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'fav/report.txt', source: 'report' });
    await putFile(admin, { path: 'fav/old.txt', source: 'old' });
    await putPage(admin, { path: 'fav-handbook', title: 'Fav Handbook', text: 'Welcome.' });
    const channel = (await createConversation(admin, { channel: 'board' })).id;
    await putPage(admin, { path: 'board-minutes', title: 'Board minutes', text: 'secret', channel });
    // Fanny starts as an admin (who sees every channel's pages) and stars a page of a channel she is not in.
    const me = await s.signedIn({ as: await s.t.userCtx('fanny', 'admin') });
    const { page } = me;
    await page.goto(`${s.url}/wiki/board-minutes`);
    await page.getByRole('heading', { name: 'Board minutes', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    await page.getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await openPreview(page, s.url, 'fav/report.txt');
    await panelOf(page).getByRole('button', { name: 'Add to favourites' }).click();
    await panelOf(page).getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await openPreview(page, s.url, 'fav/old.txt');
    await panelOf(page).getByRole('button', { name: 'Add to favourites' }).click();
    await panelOf(page).getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await page.locator('.crumb-row').getByRole('button', { name: 'Add to favourites' }).click();
    await page.locator('.crumb-row').getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await page.goto(`${s.url}/wiki/fav-handbook`);
    await page.getByRole('heading', { name: 'Fav Handbook', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    await page.getByRole('button', { name: 'Remove from favourites' }).waitFor();

    await page.goto(`${s.url}/files`);
    await page.getByRole('navigation', { name: 'Your lists' }).getByRole('link', { name: 'Favourites' }).click();
    const list = page.getByRole('region', { name: 'Favourites' });
    await list.getByRole('link', { name: 'Fav Handbook' }).waitFor();
    expect(await list.locator('li').count()).toBe(5);
    // The file goes, and Fanny is an editor now, outside the channel: neither is listed any more.
    await deleteFile(admin, { path: 'fav/old.txt' });
    await s.t.userCtx('fanny', 'editor');
    await page.reload();
    await list.getByRole('link', { name: 'report.txt' }).waitFor();
    expect(await list.locator('li a').allInnerTexts()).toEqual(['Fav Handbook', 'fav', 'report.txt']);
    await list.getByRole('link', { name: 'report.txt' }).click();
    await panelOf(page).locator('pre.preview-text', { hasText: 'report' }).waitFor();
    expect(new URL(page.url()).search).toBe('?preview=report.txt');

    await page.getByRole('navigation', { name: 'Your lists' }).getByRole('link', { name: 'Recent' }).click();
    const recent = page.getByRole('region', { name: 'Recent' });
    await recent.getByRole('link', { name: 'report.txt' }).waitFor();
    expect(await recent.locator('li a').allInnerTexts()).toEqual(['report.txt', 'Fav Handbook']);
    await me.context.close();
  });

  it('restores an earlier version of a memory file as a new version', async () => {
    const admin = await s.t.admin();
    await setMemory(admin, { file: 'AGENTS.md' }, 'Cite sources.');
    await setMemory(admin, { file: 'AGENTS.md' }, 'Be brief.');
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/memory/AGENTS.md`);
    await expect.poll(() => page.getByRole('textbox', { name: 'AGENTS.md' }).inputValue()).toBe('Be brief.');
    await page.locator('table.history tr[data-version="1"]').getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 restored as version 3').waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'AGENTS.md' }).inputValue()).toBe('Cite sources.');
    await page.locator('table.history tr[data-version="3"]').waitFor();
    expect((await getMemory(admin, { file: 'AGENTS.md' })).content).toBe('Cite sources.');
    await context.close();
  });
});
