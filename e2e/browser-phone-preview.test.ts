import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

const PHONE = { width: 360, height: 740 };
const N = 200;
const name = (i: number) => `f-${String(i).padStart(3, '0')}.txt`;

/** Whether the element lies wholly inside the phone's screen. */
const onScreen = async (el: Locator) => {
  const b = await el.boundingBox();
  return !!b && b.y >= 0 && b.y + b.height <= PHONE.height && b.x >= 0 && b.x + b.width <= PHONE.width;
};

/** The path of a file row wholly on screen, below the top `from` px (a row the user can tap where they are). */
const rowOnScreen = (page: Page, from: number) =>
  page.evaluate(
    ({ from, h }) =>
      [...document.querySelectorAll<HTMLElement>('table.files tbody tr[data-path]')].find((tr) => {
        const r = tr.getBoundingClientRect();
        return r.top >= from && r.bottom <= h;
      })?.dataset.path,
    { from, h: PHONE.height },
  );

/** The path of the file whose name button has keyboard focus, if one has. */
const focusedRow = (page: Page) => page.evaluate(() => document.activeElement?.closest<HTMLElement>('tr[data-path]')?.dataset.path ?? null);

// The preview of a file on a phone 360 px wide, in a folder of 200 files (several screens long; the table draws
// only the rows near the screen): the preview sits below the table, so opening it scrolls to it and closing it
// returns to the file that was tapped.
describe.skipIf(!hasChromium)('web UI: the preview on a phone, in a long folder', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    for (let i = 1; i <= N; i++) await putFile(admin, { path: `long/${name(i)}`, source: `file ${i}\n${'a line of text\n'.repeat(6)}` });
  }, 120_000);
  afterAll(async () => s?.close());

  const phoneAt = async (path: string) => {
    const { context, page } = await s.signedIn();
    await page.setViewportSize(PHONE);
    await page.goto(`${s.url}${path}`);
    await fileRow(page, `long/${name(1)}`).waitFor();
    return { context, page };
  };
  const panel = (page: Page) => page.getByRole('complementary', { name: 'Preview' });

  it('opens the preview of the last file of the folder at the top of the screen, its text in view', async () => {
    const { context, page } = await phoneAt('/files/long');
    const last = fileRow(page, `long/${name(N)}`);
    // As a person does: scroll to the end until the last file shows (the folder's later pages arrive after the
    // first rows are drawn, and the table draws only the rows on screen).
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return last.count();
      })
      .toBe(1);
    await last.locator('button.file-name').click();
    await panel(page).locator('pre.preview-text').waitFor();
    const box = (await panel(page).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThanOrEqual(1);
    expect(await onScreen(panel(page).getByRole('heading', { name: name(N) }))).toBe(true);
    expect(await onScreen(panel(page).getByRole('button', { name: 'Close' }))).toBe(true);
    // The text starts on the screen, not below it.
    expect((await panel(page).locator('pre.preview-text').boundingBox())!.y).toBeLessThan(PHONE.height);
    await context.close();
  });

  it('Escape, or Close, takes the phone back to the file that was tapped, with focus on it', async () => {
    const { context, page } = await phoneAt('/files/long');
    for (const close of ['Escape', 'Close'] as const) {
      // Somewhere in the middle of the folder, a file on screen below the toolbar.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 3));
      await expect.poll(() => rowOnScreen(page, 100)).toBeTruthy();
      const path = (await rowOnScreen(page, 100))!;
      await fileRow(page, path).locator('button.file-name').click();
      await panel(page).locator('pre.preview-text').waitFor();
      expect(await onScreen(panel(page).getByRole('heading', { name: path.slice(5) }))).toBe(true);

      if (close === 'Escape') await page.keyboard.press('Escape');
      else await panel(page).getByRole('button', { name: 'Close' }).click();
      await panel(page).waitFor({ state: 'detached' });
      await expect.poll(() => focusedRow(page), { message: `focus after ${close}` }).toBe(path);
      expect(await onScreen(fileRow(page, path).locator('button.file-name')), `row on screen after ${close}`).toBe(true);
    }
    await context.close();
  });

  it('Escape closes the folder drawer over the preview first, then the preview', async () => {
    const { context, page } = await phoneAt('/files/long');
    await fileRow(page, `long/${name(2)}`)
      .locator('button.file-name')
      .click();
    await panel(page).locator('pre.preview-text').waitFor();
    const tree = page.getByRole('tree', { name: 'Folders' });
    await page.getByRole('button', { name: 'Folders' }).click();
    await tree.waitFor();
    await page.keyboard.press('Escape');
    await tree.waitFor({ state: 'hidden' });
    expect(await panel(page).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    await context.close();
  });
});
