import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAgent, createConversation, moveFile, putFile, putPage } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

const PHONE = { width: 360, height: 740 };

/** How far the page itself is wider than the phone's screen (0 when nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

// A phone 360 px wide: every page fits its width (only a wide table scrolls, inside itself), the folder tree is a
// drawer behind a button, and the file table is a list.
describe.skipIf(!hasChromium)('web UI: on a phone', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'reports/2026/quarterly results with a long name for a small screen.md', source: '# Q1\n\n' + 'word '.repeat(400) });
    await putFile(admin, { path: 'reports/plan.txt', source: 'plan' });
    await putFile(admin, { path: 'reports/notes.md', source: 'notes' });
    await putFile(admin, { path: 'reports/old.txt', source: 'old' });
    await moveFile(admin, { from: 'reports/old.txt', to: 'reports/archive/old.txt' });
    await createAgent(admin, { name: 'Researcher', instructions: 'You research things and write them down.', files: 'on' });
    await createConversation(admin, { channel: 'general' });
    await putPage(admin, {
      path: 'handbook/refunds',
      title: 'Refunds',
      text: '# Refunds\n\n| Plan | Days | Who approves | Where it is written down |\n| --- | --- | --- | --- |\n| Team | 5 | the account owner | handbook/refunds-and-returns-for-teams |\n\n```\na-very-long-line-of-code-that-does-not-wrap-anywhere-at-all-and-goes-on-and-on\n```',
    });
  });
  afterAll(async () => s?.close());

  const phone = async () => {
    const { context, page } = await s.signedIn();
    await page.setViewportSize(PHONE);
    return { context, page };
  };

  it('no page scrolls sideways at 360 px', async () => {
    const { context, page } = await phone();
    const wide: string[] = [];
    const check = async (where: string) => {
      const px = await overflow(page);
      if (px > 0) wide.push(`${where}: ${px}px too wide`);
    };
    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/plan.txt').waitFor();
    await check('files');
    await fileRow(page, 'reports/plan.txt').locator('button.file-name').click();
    await page.locator('pre.preview-text').waitFor();
    await check('file preview');
    // The upload queue, with a long file name, while the upload runs (slowed by Chromium's throttling).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await uploadViaUi(page, [{ name: 'a-rather-long-file-name-for-a-phone-screen-that-does-not-wrap-by-itself.bin', body: Buffer.alloc(1024 * 1024, 1) }]);
    await page.locator('.upload-row[data-state=uploading]').waitFor();
    await check('upload queue');
    await page.getByRole('button', { name: 'Cancel all' }).click();
    await page.locator('.upload-row[data-state=cancelled]').waitFor();
    await check('upload queue finished');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.goto(`${s.url}/memory`);
    await page.locator('nav.side li a').first().click();
    await page.locator('.memory-page textarea').waitFor();
    await check('memory');
    await page.goto(`${s.url}/wiki/handbook/refunds`);
    await page.locator('.markdown table').waitFor();
    await check('wiki page');
    await page.locator('.wiki-view > .row button').first().click();
    await page.locator('.wiki-editor textarea').waitFor();
    await check('wiki editor');
    await page.goto(`${s.url}/agents`);
    await page.locator('tr[data-agent]').waitFor();
    await check('agents');
    await page.locator('tr[data-agent] a.agent-name').click();
    await page.locator('.agent-tokens .row button').click();
    await page.locator('.token-dialog').waitFor();
    await check('new token dialog');
    await page.locator('.token-dialog .modal-actions button').last().click();
    await page.locator('.agent-tokens [data-token-id]').first().waitFor();
    await check('agent page');
    await page.goto(`${s.url}/members`);
    await page.locator('tr[data-member]').first().waitFor();
    await check('members');
    await page.goto(`${s.url}/audit`);
    await page.locator('.audit-page table').waitFor();
    await check('audit');
    await page.goto(`${s.url}/search?q=refunds`);
    await page.locator('.search-page li').first().waitFor();
    await check('search');
    // Volumes (R1): the dialog that makes a knowledge base, and the picker once it lists one with a long name.
    await page.goto(`${s.url}/files`);
    await page.locator('.volume-picker button.link').first().click();
    await page.locator('.volume-dialog').waitFor();
    await check('new knowledge base dialog');
    await page.locator('.volume-dialog input:not([type=radio])').fill('A knowledge base with a rather long name for a small phone screen');
    await page.locator('.volume-dialog button[type=submit]').click();
    await page.waitForURL(/volume=vol_/);
    await page.locator('.volume-picker optgroup').nth(1).waitFor({ state: 'attached' });
    await check('knowledge base');
    await context.close();

    const anon = await s.browser.newContext({ viewport: PHONE });
    const login = await anon.newPage();
    await login.goto(`${s.url}/login`);
    await login.locator('input[name=password]').waitFor();
    const px = await overflow(login);
    if (px > 0) wide.push(`login: ${px}px too wide`);
    await anon.close();
    expect(wide).toEqual([]);
  });

  it('shows the folder tree as a drawer behind a button: it opens, a folder closes it, Escape closes it', async () => {
    const { context, page } = await phone();
    await page.goto(`${s.url}/files`);
    const tree = page.getByRole('tree', { name: 'Folders' });
    const toggle = page.getByRole('button', { name: 'Folders' });
    await toggle.waitFor();
    expect(await tree.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await toggle.click();
    await tree.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // The drawer lies over the page and fits the screen.
    const box = (await tree.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await tree.getByRole('treeitem', { name: 'reports', exact: true }).click();
    await page.waitForURL(/\/files\/reports$/);
    await tree.waitFor({ state: 'hidden' });
    await fileRow(page, 'reports/plan.txt').waitFor();

    await toggle.click();
    await tree.waitFor();
    await page.keyboard.press('Escape');
    await tree.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Folders');
    await context.close();
  });

  it('lists files one under the other, each with its name, size and actions within the screen', async () => {
    const { context, page } = await phone();
    await page.goto(`${s.url}/files/reports`);
    const row = fileRow(page, 'reports/plan.txt');
    await row.waitFor();
    // The column headers are for screen readers only: a list has no header row on screen.
    expect(await page.locator('table.files thead').boundingBox()).toMatchObject({ width: 1 });
    for (const part of [row.locator('button.file-name'), row.locator('td.num'), row.getByRole('button', { name: 'Delete plan.txt' })]) {
      const b = (await part.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
    const rows = await page.locator('table.files tbody tr[data-path]').evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().top));
    expect(rows.length).toBe(2);
    expect(rows[1]! > rows[0]!).toBe(true);
    await context.close();
  });
});
