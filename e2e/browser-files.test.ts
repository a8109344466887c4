import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// The Files page in a real Chromium against a real server (F4–F13). STOA_UI_MAX_FILES is 4 here so the
// "too many files" warning can be seen with a handful of files.
// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe.skipIf(!hasChromium)('web UI: Files', { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;

  beforeAll(async () => {
    s = await startUiServer({ uiMaxFiles: 4 });
    ({ page } = await s.signedIn());
  });
  afterAll(async () => s?.close());

  it('signs in with the one-time login link, which works only once', async () => {
    await page.getByRole('tree').getByText('Project files').waitFor();
    await page.getByText('Used 0 B of 1.0 GiB').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('stoa.token'))).toMatch(/\S{16,}/);
    const link = await s.loginLink();
    const other = await s.browser.newContext();
    const p2 = await other.newPage();
    await p2.goto(link);
    await p2.waitForURL(/\/files$/);
    await p2.goto(link);
    await p2.getByRole('alert').getByText('invalid, used or expired').waitFor();
    await other.close();
  });

  it('uploads several files into the selected folder and shows their size and type', async () => {
    await uploadViaUi(page, [
      { name: 'notes.txt', body: 'hello world' },
      { name: 'page.html', body: '<h1>Hi</h1><script>window.__pwned = 1; document.title = "pwned"</script><img src=x onerror="window.__pwned=2">' },
    ]);
    await page.getByText('Uploaded 2 file(s)').waitFor();
    const row = fileRow(page, 'notes.txt');
    await row.waitFor();
    expect(await row.locator('td.num').innerText()).toBe('11 B');
    // The kind in words; the media type in the cell's tooltip.
    expect(await row.locator('td.type').innerText()).toBe('Text');
    expect(await row.locator('td.type').getAttribute('title')).toBe('text/plain');
    expect(await fileRow(page, 'page.html').locator('td.type').innerText()).toBe('Web page');
    await page.locator('.usage', { hasText: 'Used 1' }).waitFor();
  });

  it('previews a text file as text in the side panel', async () => {
    await fileRow(page, 'notes.txt').getByRole('button', { name: 'notes.txt', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Preview' });
    await panel.locator('pre.preview-text', { hasText: 'hello world' }).waitFor();
    expect(await panel.locator('.preview-path').innerText()).toBe('notes.txt');
    expect(await panel.locator('.preview-type').innerText()).toBe('Text');
    expect(await panel.locator('.preview-mime').innerText()).toBe('text/plain');
    // Escape closes it; the file opens again with a click.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await fileRow(page, 'notes.txt').getByRole('button', { name: 'notes.txt', exact: true }).click();
    await panel.locator('pre.preview-text', { hasText: 'hello world' }).waitFor();
    // Close gives keyboard focus back to the file's name, where the preview was opened from.
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest<HTMLElement>('tr[data-path]')?.dataset.path)).toBe('notes.txt');
  });

  it('shows an HTML file as source: the literal <script> is on the page and nothing of it runs', async () => {
    await fileRow(page, 'page.html').getByRole('button', { name: 'page.html', exact: true }).click();
    const pre = page.locator('pre.preview-text', { hasText: '<script>' });
    await pre.waitFor();
    expect(await pre.innerText()).toContain('<script>window.__pwned = 1;');
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.title()).not.toBe('pwned');
    expect(await page.locator('.preview-body script, .preview-body img').count()).toBe(0);
  });

  it('downloads a file as an attachment with its name', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      fileRow(page, 'notes.txt').getByRole('button', { name: 'Download notes.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.txt');
  });

  it('renames in place (the field holds the name only) and moves with "Move to…"', async () => {
    await fileRow(page, 'notes.txt').getByRole('button', { name: 'Rename notes.txt' }).click();
    // The box takes the focus as it opens (focusOnMount: Preact does not act on `autoFocus`).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename');
    const field = page.getByRole('textbox', { name: 'Rename' });
    expect(await field.inputValue()).toBe('notes.txt');
    // A slash is not a way to move: the rename says so and changes nothing.
    await field.fill('docs/draft.txt');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').getByText('A name cannot contain "/"').waitFor();
    await field.fill('draft.txt');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Renamed to draft.txt').waitFor();
    await fileRow(page, 'draft.txt').waitFor();

    await fileRow(page, 'draft.txt').getByRole('button', { name: 'Move to… draft.txt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move draft.txt to a folder' });
    await dialog.getByRole('combobox', { name: 'Folder (empty: the root)' }).fill('docs');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('Moved to docs/draft.txt').waitFor();
    await fileRow(page, 'draft.txt').waitFor({ state: 'detached' });
    await page.getByRole('tree').getByRole('treeitem', { name: 'docs' }).click();
    // Renamed inside a folder, the file stays in that folder (it once went to the top).
    await fileRow(page, 'docs/draft.txt').getByRole('button', { name: 'Rename draft.txt' }).click();
    await page.getByRole('textbox', { name: 'Rename' }).fill('renamed.txt');
    await page.getByRole('button', { name: 'Save' }).click();
    await fileRow(page, 'docs/renamed.txt').waitFor();

    await fileRow(page, 'docs/renamed.txt').getByRole('button', { name: 'Move to… renamed.txt' }).click();
    await page.getByRole('dialog').getByRole('combobox', { name: 'Folder (empty: the root)' }).fill('archive');
    await page.getByRole('dialog').getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('Moved to archive/renamed.txt').waitFor();
    // "docs" went with its last file; the tree falls back to the root.
    await page.getByRole('tree').getByRole('treeitem', { name: 'docs' }).waitFor({ state: 'detached' });
    expect(await page.locator('.tree-row.selected').innerText()).toContain('Project files');
  });

  it('refuses a move onto an existing file and overwrites nothing', async () => {
    await putFile(await s.t.admin(), { path: 'archive/page.html', source: '' });
    await page.getByRole('tree').getByRole('treeitem', { name: 'Project files' }).click();
    await fileRow(page, 'page.html').getByRole('button', { name: 'Move to… page.html' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move page.html to a folder' });
    await dialog.getByRole('combobox', { name: 'Folder (empty: the root)' }).fill('archive');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('alert').getByText('A file already exists there').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await fileRow(page, 'page.html').waitFor();
  });

  it('searches names over the whole storage with full paths; clearing returns to the folder', async () => {
    await page.getByRole('searchbox', { name: 'Search files' }).fill('RENAMED');
    await page.getByText('Search results for "RENAMED"').waitFor();
    const row = fileRow(page, 'archive/renamed.txt');
    expect(await row.locator('.full-path').innerText()).toBe('archive/renamed.txt');
    await page.getByRole('searchbox', { name: 'Search files' }).fill('');
    await fileRow(page, 'page.html').waitFor();
    await page.getByText('Search results for').waitFor({ state: 'detached' });
  });

  it('deletes only after confirmation', async () => {
    await fileRow(page, 'page.html').getByRole('button', { name: 'Delete page.html' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete "page.html"? It goes to the trash').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await fileRow(page, 'page.html').waitFor();
    await fileRow(page, 'page.html').getByRole('button', { name: 'Delete page.html' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted page.html').waitFor();
    await fileRow(page, 'page.html').waitFor({ state: 'detached' });
    await page.getByText('Used 11 B of 1.0 GiB').waitFor();
  });

  it('creates a nested new folder that is stored: empty, it survives a reload (F9 as amended)', async () => {
    await page.getByRole('button', { name: 'New folder' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Folder name (e.g. reports/2026)');
    await page.getByRole('textbox', { name: 'Folder name' }).fill('reports/2026');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.tree-row.selected', { hasText: '2026' }).waitFor();
    await uploadViaUi(page, [{ name: 'q1.csv', body: 'a,b\n1,2\n' }]);
    await fileRow(page, 'reports/2026/q1.csv').waitFor();

    // A new folder is made inside the selected one: go back to the top first.
    await page.getByRole('tree').getByRole('treeitem', { name: 'Project files' }).click();
    await page.locator('.tree-row.selected', { hasText: 'Project files' }).waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('textbox', { name: 'Folder name' }).fill('scratch');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('tree').getByRole('treeitem', { name: 'scratch' }).waitFor();
    await page.reload();
    await page.getByRole('tree').getByRole('treeitem', { name: 'reports' }).click();
    await page.getByRole('tree').getByRole('treeitem', { name: '2026' }).waitFor();
    await page.getByRole('tree').getByRole('treeitem', { name: 'scratch' }).click();
    await page.getByRole('button', { name: 'Move folder' }).click();
    await page.getByRole('textbox', { name: 'Move the folder to' }).fill('scratch-moved');
    await page.getByRole('button', { name: 'Move folder' }).last().click();
    await page.getByRole('tree').getByRole('treeitem', { name: 'scratch-moved' }).waitFor();
    await page.getByRole('button', { name: 'Delete folder' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete folder' }).click();
    await page.getByText('Deleted scratch-moved').waitFor();
    // The tree reloads after the message shows: wait for the row to go rather than reading it once.
    await page.getByRole('tree').getByRole('treeitem', { name: 'scratch-moved' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('tree').getByRole('treeitem', { name: 'scratch-moved' }).count()).toBe(0);
  });

  it('lists versions of a re-uploaded file and restores an earlier one', async () => {
    await page.getByRole('tree').getByRole('treeitem', { name: '2026' }).click();
    await uploadViaUi(page, [{ name: 'q1.csv', body: 'a,b\n1,2\n3,4\n' }]);
    // The name is taken: a new version only when asked for.
    await page.getByRole('dialog', { name: 'This name is taken' }).getByRole('button', { name: 'Replace (new version)' }).click();
    await page.getByText('Uploaded 1 file(s)').waitFor();
    await fileRow(page, 'reports/2026/q1.csv').getByRole('button', { name: 'q1.csv', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Preview' });
    // A CSV file shows as a table (the raw text is a toggle away).
    await panel.locator('.preview-table td', { hasText: '4' }).waitFor();
    await panel.locator('tr[data-version="1"]').getByRole('button', { name: 'Restore' }).click();
    await panel.locator('tr[data-version="3"]').waitFor();
    await panel.locator('.preview-table').filter({ hasNotText: '4' }).waitFor();
  });

  it('uploads files dropped onto the table', async () => {
    const dataTransfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    });
    await page.locator('.files-main').dispatchEvent('drop', { dataTransfer });
    await fileRow(page, 'reports/2026/dropped.txt').waitFor();
  });

  it('sends a browser with an invalid token to the login page', async () => {
    const other = await s.browser.newContext();
    await other.addInitScript(() => localStorage.setItem('stoa.token', 'stoa_not-a-real-token'));
    const p2 = await other.newPage();
    await p2.goto(`${s.url}/files`);
    await p2.waitForURL(/\/login$/);
    await p2.getByRole('heading', { name: 'Sign in to Stoa' }).waitFor();
    await other.close();
  });

  it('warns above the table when a folder holds more files than the UI shows', async () => {
    await page.getByRole('tree').getByRole('treeitem', { name: 'Project files' }).click();
    await uploadViaUi(
      page,
      ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `${n}.md`, body: `# ${n}` })),
    );
    await page.getByText('Only the first 4 of 5 files are shown here. Use search to find the others.').waitFor();
    expect(await page.locator('table.files tbody tr[data-path]').count()).toBe(4);
  });
});
