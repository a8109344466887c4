import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createConversation, moveFile, putFile, putPage } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer, newTestContext } from './browser-helpers.js';
import { violations } from './a11y-tour.js';

const langs = [
  { lang: 'en', locale: 'en-US', files: 'Files', history: 'History' },
  { lang: 'ru', locale: 'ru-RU', files: 'Файлы', history: 'История' },
  { lang: 'zh', locale: 'zh-CN', files: '文件', history: '历史' },
] as const;

// axe-core on every page of the UI, in each of its languages: a screen-reader or keyboard user meets no violation.
describe.skipIf(!hasChromium)('web UI: accessibility (axe-core)', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'reports/2026/summary.md', source: '# Summary\n\nAll good.\n' });
    await putFile(admin, { path: 'reports/plan.txt', source: 'plan' });
    await createAgent(admin, { name: 'Researcher', instructions: 'You research things.', files: 'on' });
    await createConversation(admin, { channel: 'general' });
    await putPage(admin, {
      path: 'handbook/refunds',
      title: 'Refunds',
      text: '# Refunds\n\n| Plan | Days |\n| --- | --- |\n| Team | 5 |\n\n- [x] signed\n\nSee [[handbook/missing]].',
    });
    await putPage(admin, { path: 'handbook/refunds', title: 'Refunds', text: '# Refunds\n\nFive days.\n\n```ts\nconst days: number = 5; // "window"\n```' });
    await putFile(admin, { path: 'reports/draft.txt', source: 'draft' });
    await moveFile(admin, { from: 'reports/draft.txt', to: 'reports/old/draft.txt' });
  });
  afterAll(async () => s?.close());

  // The pages and dialogs of the tour (login, join, files, preview, delete dialog, wiki, editor, memory, agents,
  // token dialog, members, invite, audit, account, search, consent) are checked in every language at 1280×800 by
  // browser-a11y-desktop.test.ts and at 360×740 by browser-a11y-phone.test.ts; here, the states the tour does not
  // reach, in each language.
  it.each(langs)('has no violations in the states beyond the tour in $lang', async ({ lang, locale, files, history }) => {
    const found: string[] = [];
    const context = await newTestContext(s.browser, { locale, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(await s.loginLink());
    await page.waitForURL(/\/files$/);

    await page.goto(`${s.url}/wiki/handbook/refunds`);
    await page.locator('.markdown').waitFor();
    // Checked once the code block is coloured (its grammars load after the page).
    await page.locator('.markdown .hljs-comment').waitFor();
    found.push(...(await violations(page, `${lang} wiki page`)));
    await page.locator('.wiki-history h2 button').click();
    await page.locator('.wiki-history tr[data-version="1"]').waitFor();
    found.push(...(await violations(page, `${lang} wiki history`)));
    await page.locator('.wiki-history tr[data-version="1"] button').nth(1).click();
    await page.locator('.wiki-diff').waitFor();
    found.push(...(await violations(page, `${lang} wiki diff`)));
    expect(await page.getByRole('heading', { name: history }).count()).toBeGreaterThan(0);

    // A refused save: yours and theirs side by side, and the merge.
    const admin = await s.t.admin();
    await putPage(admin, { path: `conflict/${lang}`, title: 'Conflict', text: 'One.\nTwo.' });
    await page.goto(`${s.url}/wiki/conflict/${lang}`);
    await page.locator('.wiki-view > .row button').first().click();
    await page.locator('.wiki-editor textarea').fill('One.\nTwo, mine.');
    await putPage(admin, { path: `conflict/${lang}`, text: 'One, theirs.\nTwo.' });
    await page.locator('.wiki-editor button[type=submit]').click();
    await page.locator('.conflict textarea').waitFor();
    found.push(...(await violations(page, `${lang} wiki conflict`)));

    await page.goto(`${s.url}/agents`);
    await page.locator('tr[data-agent] a.agent-name').click();
    await page.locator('.agent-detail').waitFor();
    await page.locator('.agent-tokens [data-token-id], .agent-tokens .empty').first().waitFor();
    await page.locator('.agent-tokens .row button').click();
    await page.locator('.token-dialog').waitFor();
    await page.locator('.token-dialog .modal-actions button').last().click();
    await page.locator('.agent-tokens [data-token-id]').first().waitFor();
    found.push(...(await violations(page, `${lang} agent with a token`)));

    // Files ticked for a bulk action, sorted by size.
    await page.goto(`${s.url}/files/reports?sort=size&dir=desc`);
    await fileRow(page, 'reports/plan.txt').locator('input[type=checkbox]').check();
    await page.locator('form.bulk-bar').waitFor();
    found.push(...(await violations(page, `${lang} files selected`)));

    // The upload queue: rows uploading and waiting (the upload slowed by Chromium's throttling), then cancelled.
    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/plan.txt').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await uploadViaUi(
      page,
      ['q1', 'q2', 'q3', 'q4'].map((n) => ({ name: `${n}.bin`, body: Buffer.alloc(1024 * 1024, 1) })),
    );
    await page.locator('.upload-row[data-state=waiting]').waitFor();
    found.push(...(await violations(page, `${lang} upload queue`)));
    await page.locator('.upload-head button').click();
    await page.locator('.upload-row[data-state=cancelled]').first().waitFor();
    await page.locator('.upload-row[data-state=uploading], .upload-row[data-state=waiting]').first().waitFor({ state: 'detached' });
    found.push(...(await violations(page, `${lang} upload queue cancelled`)));
    await page.locator('.upload-head button').click();

    // Volumes (R1): the dialog that makes a knowledge base, then the Files page inside it with the picker's groups.
    await page.goto(`${s.url}/files`);
    await page.locator('.volume-picker button.link').first().click();
    await page.locator('.volume-dialog').waitFor();
    found.push(...(await violations(page, `${lang} new knowledge base dialog`)));
    await page.locator('.volume-dialog input:not([type=radio])').fill(`KB ${lang}`);
    await page.locator('.volume-dialog button[type=submit]').click();
    await page.waitForURL(/volume=vol_/);
    await page.locator('.volume-picker optgroup').nth(1).waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: files, level: 1 }).waitFor();
    found.push(...(await violations(page, `${lang} knowledge base`)));

    await context.close();
    expect(found).toEqual([]);
  });

  it('the folder tree follows the ARIA tree pattern: one tab stop, arrow keys, Home and End, Enter opens', async () => {
    const { context, page } = await s.signedIn();
    const tree = page.getByRole('tree', { name: 'Folders' });
    const item = (name: string) => tree.getByRole('treeitem', { name, exact: true });
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('data-path'));
    await item('Project files').waitFor();
    // One item of the tree is in the Tab order: the selected one.
    expect(await tree.locator('[role=treeitem][tabindex="0"]').count()).toBe(1);
    await item('Project files').focus();
    expect(await item('reports').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowDown');
    expect(await focusedName()).toBe('reports');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => item('reports').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focusedName).toBe('reports/2026');
    await page.keyboard.press('Home');
    await expect.poll(focusedName).toBe('');
    await page.keyboard.press('End');
    await expect.poll(focusedName).toBe('reports/old');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focusedName).toBe('reports');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => item('reports').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focusedName).toBe('');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/files\/reports$/);
    await fileRow(page, 'reports/plan.txt').waitFor();
    expect(await item('reports').getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('a dialog keeps keyboard focus inside while open and gives it back to the button that opened it', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/reports`);
    const del = fileRow(page, 'reports/plan.txt').getByRole('button', { name: 'Delete plan.txt' });
    await del.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'));
    expect(await inDialog()).toBe(true);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await inDialog()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await inDialog()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete plan.txt');
    await fileRow(page, 'reports/plan.txt').waitFor();
    await context.close();
  });
  it('the loading placeholders and a failed load with Retry have no violations', async () => {
    const { context, page } = await s.signedIn();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname.endsWith('/members'),
      async (route) => {
        await held;
        await route.abort('connectionrefused');
      },
      { times: 1 },
    );
    await page.getByRole('link', { name: 'Members' }).click();
    await page.locator('.members-page [aria-busy="true"]').waitFor();
    const found = await violations(page, 'members loading');
    release();
    await page.getByRole('alert').getByRole('button', { name: 'Retry' }).waitFor();
    found.push(...(await violations(page, 'members failed')));
    expect(found).toEqual([]);
    await context.close();
  });
});
