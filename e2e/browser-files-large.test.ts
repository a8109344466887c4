import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listFolder, putFile, type Ctx } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

/** Rows of the file table that are in the page (the rest of a long folder is blank space until scrolled to). */
const drawnRows = (page: Page) => page.locator('table.files tbody tr[data-path]').count();

/** Writes `n` small files `folder/f-1.txt` … `folder/f-n.txt` through the core, in the test process. */
async function seed(ctx: Ctx, folder: string, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) await putFile(ctx, { path: `${folder}/f-${i}.txt`, source: String(i) });
}

// A folder may hold up to STOA_UI_MAX_FILES = 20,000 files: the table draws only the rows near the screen, and
// every file is still reachable by scrolling and covered by "select all".
describe.skipIf(!hasChromium)('web UI: a folder of thousands of files', () => {
  let s: UiServer;
  // Fewer than the 20,000 the UI allows: putFile stores each file with its version and audit entry (about 25 ms
  // each here, so 20,000 took over eight minutes) and the core has no bulk write. 4,000 rows are still a hundred
  // screens, so what is asserted (a screenful drawn, the last row reachable, select-all covering undrawn rows) is
  // the same; 20,000 was run once by hand and passed.
  const BIG = 4_000;

  beforeAll(async () => {
    s = await startUiServer();
    await seed(await s.t.admin(), 'big', BIG);
  }, 600_000);
  afterAll(async () => s?.close());

  it('shows the first rows at once, keeps about a screenful in the page, and scrolls to the last file', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/big`);
    await fileRow(page, 'big/f-1.txt').waitFor();
    await fileRow(page, 'big/f-2.txt').waitFor();
    expect(await page.locator('table.files').getAttribute('aria-rowcount')).toBe(String(BIG + 1));
    expect(await fileRow(page, 'big/f-1.txt').getAttribute('aria-rowindex')).toBe('2');
    expect(await drawnRows(page)).toBeLessThanOrEqual(100);

    // As a person does: scroll to the end until the last file shows (the folder's later pages keep arriving, forty
    // of them, and on a loaded machine the last may come after the first scroll).
    const last = fileRow(page, `big/f-${BIG}.txt`);
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          return last.isVisible();
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await last.scrollIntoViewIfNeeded();
    expect(await last.getAttribute('aria-rowindex')).toBe(String(BIG + 1));
    expect(await last.isVisible()).toBe(true);
    expect(await drawnRows(page)).toBeLessThanOrEqual(100);
    await fileRow(page, 'big/f-1.txt').waitFor({ state: 'detached' });

    // Sorting turns the whole folder round, not only the rows in the page.
    await page.locator('table.files thead').getByRole('button', { name: 'Name', exact: true }).click();
    await page.waitForURL(/\?sort=name&dir=desc$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await fileRow(page, `big/f-${BIG}.txt`).waitFor();
    expect(await fileRow(page, `big/f-${BIG}.txt`).getAttribute('aria-rowindex')).toBe('2');
    await context.close();
  });

  it('"select all" ticks every file of the folder, also those never drawn', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/big`);
    await fileRow(page, 'big/f-1.txt').waitFor();
    await page.getByRole('checkbox', { name: 'Select all files' }).check();
    await page.getByRole('form', { name: `${BIG} selected` }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => fileRow(page, `big/f-${BIG}.txt`).getByRole('checkbox').isChecked()).toBe(true);
    // The confirmation counts them all and names the first few, not twenty thousand paths.
    await page
      .getByRole('form', { name: `${BIG} selected` })
      .getByRole('button', { name: 'Delete selected' })
      .click();
    const text = await page.getByRole('dialog').innerText();
    expect(text).toContain(`Delete ${BIG} file(s)? They go to the trash.`);
    expect(text.length).toBeLessThan(1000);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('draws the first rows from a first page without hashes, and loads the later pages by itself', async () => {
    const { context, page } = await s.signedIn();
    const pages: Array<{ files: Array<Record<string, unknown>>; nextCursor: string | null }> = [];
    page.on('response', (r) => {
      if (/\/api\/v1\/projects\/[^/]+\/folders\?/.test(r.url()))
        void r.json().then(
          (j: (typeof pages)[number]) => pages.push(j),
          () => undefined, // a request the page no longer needed (the tab closing)
        );
    });
    await page.goto(`${s.url}/files/big`);
    await fileRow(page, 'big/f-1.txt').waitFor();
    await expect.poll(() => pages.some((p) => p.nextCursor === null), { timeout: 60_000 }).toBe(true);
    // The first answer is one page, the rest come in more; no answer carries a hash the list never shows.
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.min(...pages.map((p) => p.files.length))).toBeLessThan(BIG);
    expect(pages.flatMap((p) => p.files).filter((f) => 'sha256' in f)).toEqual([]);
    const chain = pages.slice(0, pages.findIndex((p) => p.nextCursor === null) + 1);
    expect(chain.reduce((n, p) => n + p.files.length, 0)).toBe(BIG);
    await context.close();
  });

  it('the search box finds a file that only a later page of the folder holds', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/big`);
    await fileRow(page, 'big/f-1.txt').waitFor();
    await page.getByRole('searchbox', { name: 'Search files' }).fill(`f-${BIG - 1}.txt`);
    await fileRow(page, `big/f-${BIG - 1}.txt`).waitFor();
    await context.close();
  });

  it('"select all" then "Download as zip" asks for every file of the folder', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/big`);
    await fileRow(page, 'big/f-1.txt').waitFor();
    // Ticked at once, before the later pages are in: select-all still means the whole folder.
    await page.getByRole('checkbox', { name: 'Select all files' }).check();
    const bar = page.getByRole('form', { name: `${BIG} selected` });
    const [asked] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/files/archive') && r.method() === 'POST'),
      bar.getByRole('button', { name: 'Download as zip' }).click(),
    ]);
    const body = asked.postData() ?? '';
    const paths = (JSON.parse(body) as { paths: string[] }).paths;
    expect(paths).toHaveLength(BIG);
    expect(paths).toContain(`big/f-${BIG}.txt`);
    await context.close();
  });

  it('moves every file of a folder longer than the screen after "select all"', async () => {
    // The bulk move runs one request per file (as the row buttons do), so this folder is smaller than the one
    // above; it is still several screens long, so most of its rows were never drawn when they were moved.
    const admin = await s.t.admin();
    await seed(admin, 'many', 300);
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/many`);
    await fileRow(page, 'many/f-1.txt').waitFor();
    expect(await drawnRows(page)).toBeLessThan(300);
    await page.getByRole('checkbox', { name: 'Select all files' }).check();
    const bar = page.getByRole('form', { name: '300 selected' });
    await bar.getByRole('button', { name: 'Move to folder' }).click();
    await bar.getByRole('textbox', { name: 'Folder (empty: the root)' }).fill('moved');
    await bar.getByRole('button', { name: 'Move to folder' }).click();
    await page.getByRole('status').getByText('Moved 300 file(s)').waitFor({ timeout: 120_000 });
    expect((await listFolder(admin, { folder: 'many' })).files).toEqual([]);
    expect((await listFolder(admin, { folder: 'moved', limit: 1000 })).files).toHaveLength(300);
    await context.close();
  }, 180_000);
});
