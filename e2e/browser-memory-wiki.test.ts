import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Readable } from 'node:stream';
import { createAgent, createConversation, putFile, putPage } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

const memoryNav = (page: Page) => page.getByRole('navigation', { name: 'Memory files' });

// Settings → Memory (M2–M4) and the wiki (W1–W5) in a real Chromium against a real server.
// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe.skipIf(!hasChromium)('web UI: memory and wiki', { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;
  const fetched: string[] = [];

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await createAgent(admin, { name: 'Researcher', instructions: 'You research things.' });
    await createConversation(admin, { channel: 'general' });
    ({ page } = await s.signedIn());
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  });
  afterAll(async () => s?.close());

  it("lists AGENTS.md, each agent's SOUL.md and each conversation's MEMORY.md; edits and saves with history", async () => {
    await page.getByRole('link', { name: 'Memory' }).click();
    await memoryNav(page).getByRole('link', { name: 'SOUL.md — Researcher' }).waitFor();
    await memoryNav(page).getByRole('link', { name: 'MEMORY.md — #general' }).waitFor();
    await memoryNav(page)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    const editor = page.getByRole('textbox', { name: 'AGENTS.md' });
    await editor.fill('Always cite the file you used.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved — Version 1').waitFor();
    const v1 = page.locator('table.history tr[data-version="1"]');
    expect(await v1.locator('td').nth(1).innerText()).toBe('admin');
  });

  it("refuses a save over someone else's newer save; after a reload of the tab the refused text is still there, to keep or to discard for theirs", async () => {
    const other = await s.signedIn();
    await other.page.getByRole('link', { name: 'Memory' }).click();
    await memoryNav(other.page)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    await other.page.getByRole('textbox', { name: 'AGENTS.md' }).fill('Their rules.');

    await page.getByRole('textbox', { name: 'AGENTS.md' }).fill('My newer rules.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved — Version 2').waitFor();

    await other.page.getByRole('button', { name: 'Save' }).click();
    await other.page
      .getByRole('alert')
      .getByText(/saved version 2 while you were editing version 1/)
      .waitFor();
    // Their text is not thrown away, even by a reload of the tab: it comes back as a draft, saying that the file was saved since.
    other.page.once('dialog', (d) => void d.accept());
    await other.page.reload();
    await memoryNav(other.page)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    const back = other.page.getByRole('status').filter({ hasText: 'the text was saved again since (version 2)' });
    await back.waitFor();
    expect(await other.page.getByRole('textbox', { name: 'AGENTS.md' }).inputValue()).toBe('Their rules.');
    // "Discard them" shows the current text; a reload of the whole page keeps it that way (no draft left).
    await back.getByRole('button', { name: 'Discard them' }).click();
    await expect.poll(() => other.page.getByRole('textbox', { name: 'AGENTS.md' }).inputValue()).toBe('My newer rules.');
    await other.page.reload();
    await memoryNav(other.page)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    await expect.poll(() => other.page.getByRole('textbox', { name: 'AGENTS.md' }).inputValue()).toBe('My newer rules.');
    expect(await other.page.getByRole('status').count()).toBe(0);
    await other.context.close();
  });

  it('keeps unsaved memory text through a reload of the tab, and "Keep mine" saves it over a newer version', async () => {
    const textbox = page.getByRole('textbox', { name: 'AGENTS.md' });
    await textbox.fill('Draft rules, not saved yet.');
    // The tab asks before it closes or reloads with unsaved text.
    let asked = false;
    page.once('dialog', (d) => {
      asked = d.type() === 'beforeunload';
      void d.accept();
    });
    await page.reload();
    expect(asked).toBe(true);
    await memoryNav(page)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    await page.getByRole('status').filter({ hasText: 'Your unsaved changes from' }).waitFor();
    expect(await textbox.inputValue()).toBe('Draft rules, not saved yet.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved — Version 3').waitFor();
  });

  it('"Show" opens an earlier version read-only', async () => {
    await page.locator('table.history tr[data-version="1"]').getByRole('button', { name: 'Show' }).click();
    await page.getByText('Showing version 1 (read-only)').waitFor();
    expect(await page.locator('pre.memory-shown').innerText()).toBe('Always cite the file you used.');
  });

  it('opens AGENTS.md read-only for a viewer', async () => {
    const viewer = await s.signedIn({ as: await s.t.userCtx('vic', 'viewer') });
    await viewer.page.getByRole('link', { name: 'Memory' }).click();
    await memoryNav(viewer.page)
      .getByRole('link', { name: /AGENTS\.md.*Read-only/ })
      .click();
    const editor = viewer.page.getByRole('textbox', { name: 'AGENTS.md' });
    await viewer.page.getByText('You may read this file but not edit it.').waitFor();
    expect(await editor.getAttribute('readonly')).not.toBeNull();
    expect(await viewer.page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await viewer.context.close();
  });

  it('creates wiki pages; a [[link]] opens its page, which lists the linking page under "Linked here"; raw HTML stays text', async () => {
    await page.getByRole('link', { name: 'Wiki' }).click();
    for (const p of [
      { path: 'handbook/refunds', title: 'Refunds', text: '# Refunds\n\nRefunds take **five** days.' },
      {
        path: 'handbook/onboarding',
        title: 'Onboarding',
        text: 'Read [[handbook/refunds|the refund rules]] and [[handbook/missing]].\n\n<script>window.__wiki = 1</script>',
      },
    ]) {
      await page.getByRole('button', { name: 'New page' }).click();
      await page.getByRole('textbox', { name: 'Path' }).fill(p.path);
      await page.getByRole('textbox', { name: 'Title' }).fill(p.title);
      await page.getByRole('textbox', { name: 'Text' }).fill(p.text);
      // The editor shows what readers will see while it is typed.
      if (p.path === 'handbook/refunds') await page.getByRole('region', { name: 'Preview' }).locator('strong', { hasText: 'five' }).waitFor();
      const who = page.getByRole('combobox', { name: 'Who sees this' });
      await who.locator('option', { hasText: 'Channel #general' }).waitFor({ state: 'attached' });
      expect(await who.inputValue()).toBe('');
      expect(await who.locator('option').allInnerTexts()).toEqual(['The whole workspace', 'Channel #general']);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: p.title, level: 1 }).waitFor();
    }
    await page.getByText('<script>window.__wiki = 1</script>').waitFor();
    expect(await page.evaluate(() => (window as any).__wiki)).toBeUndefined();
    expect(await page.locator('a.wiki-link.missing').innerText()).toBe('handbook/missing');
    await page.getByRole('link', { name: 'the refund rules' }).click();
    await page.waitForURL(/\/wiki\/handbook\/refunds$/);
    await page.getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
    expect(await page.locator('.markdown strong').innerText()).toBe('five');
    await page.locator('.linked-here').getByRole('link', { name: 'Onboarding' }).waitFor();
  });

  it('refuses an edit over a newer save (version_conflict)', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Text' }).fill('Refunds take three days.');
    await putPage(await s.t.admin(), { path: 'handbook/refunds', text: 'Refunds take seven days.' });
    await page.getByRole('button', { name: 'Save' }).click();
    const conflict = page.getByRole('region', { name: 'Your changes and theirs' });
    await conflict
      .getByRole('alert')
      .getByText(/saved version 2 while you were editing version 1/)
      .waitFor();
    await conflict.getByRole('button', { name: 'Use all of theirs' }).click();
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Refunds take seven days.').waitFor();
  });

  it('searches pages and shows snippets', async () => {
    await page.getByRole('searchbox', { name: 'Search the wiki' }).fill('refund');
    const hit = page.locator('.search-results li').filter({ has: page.locator('small', { hasText: /^handbook\/refunds$/ }) });
    await hit.waitFor();
    expect(await hit.locator('.snippet').innerText()).toMatch(/seven days/i);
  });

  it('moves a page to a new path and deletes it after confirmation', async () => {
    await page.getByRole('searchbox', { name: 'Search the wiki' }).fill('');
    await page.locator('.wiki-tree').getByRole('button', { name: 'Onboarding' }).click();
    await page.getByRole('heading', { name: 'Onboarding', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    await page.getByRole('textbox', { name: 'New path' }).fill('guides/onboarding');
    await page.locator('form').getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(/\/wiki\/guides\/onboarding$/);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Delete the page "Onboarding" and its history?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/wiki$/);
    await page.locator('.wiki-tree').getByRole('button', { name: 'Refunds' }).waitFor();
    // The tree reloads after the delete: wait for the page to leave it rather than reading the tree mid-reload.
    await page.locator('.wiki-tree').getByRole('button', { name: 'Onboarding' }).waitFor({ state: 'detached' });
    expect(await page.locator('.wiki-tree').getByRole('button', { name: 'Onboarding' }).count()).toBe(0);
  });

  it("renders GitHub markdown: a table, a task list, coloured code, and a picture from the project's files but none from elsewhere", async () => {
    // The pages shown so far had no code: the code grammars were never downloaded.
    expect(fetched.filter((p) => p.includes('code-highlight'))).toEqual([]);
    const admin = await s.t.admin();
    // A real 1×1 PNG, so the browser can decode what it is shown.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await putFile(admin, { path: 'docs/flow.png', source: Readable.from([png]) });
    await putPage(admin, {
      path: 'guides/formats',
      title: 'Formats',
      text: '| Plan | Price |\n| --- | ---: |\n| Team | 10 |\n\n- [x] signed\n- [ ] paid\n\n![Flow](docs/flow.png) ![pixel](https://tracker.example/p.gif)\n\n```ts\nconst days: number = 5; // refund window\n```',
    });
    await page.goto(`${s.url}/wiki/guides/formats`);
    await page.getByRole('heading', { name: 'Formats', level: 1 }).waitFor();
    // Where am I: the page's path, each level a link.
    expect(await page.getByRole('navigation', { name: 'Page path' }).locator('li').allInnerTexts()).toEqual(['Pages', 'guides', 'formats']);
    expect(await page.getByRole('navigation', { name: 'Page path' }).getByRole('link', { name: 'guides' }).getAttribute('href')).toBe('/wiki/guides');
    expect(await page.locator('.markdown table td').allInnerTexts()).toEqual(['Team', '10']);
    expect(await page.locator('.markdown input[type=checkbox]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked))).toEqual([true, false]);
    const img = page.getByRole('img', { name: 'Flow' });
    await img.waitFor();
    await page.waitForFunction(() => (document.querySelector('img.wiki-image') as HTMLImageElement | null)?.naturalWidth === 1);
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(await page.locator('img[src*="tracker.example"]').count()).toBe(0);
    await page.locator('.md-image-skipped', { hasText: 'pixel' }).waitFor();
    await page.locator('.markdown pre code .hljs-keyword', { hasText: 'const' }).waitFor();
    expect(await page.locator('.markdown pre code .hljs-comment').innerText()).toBe('// refund window');
    expect((await page.locator('.markdown pre code').innerText()).trim()).toBe('const days: number = 5; // refund window');
  });

  it('History shows what changed since a version as a diff, and Restore brings it back as a new version', async () => {
    await putPage(await s.t.admin(), { path: 'guides/formats', title: 'Formats', text: '| Plan | Price |\n| --- | ---: |\n| Team | 12 |' });
    await page.goto(`${s.url}/wiki/guides/formats`);
    await page.locator('.markdown td', { hasText: '12' }).waitFor();
    const history = page.locator('.wiki-history');
    await history.getByRole('button', { name: 'Show' }).click();
    const v1 = history.locator('tr[data-version="1"]');
    await v1.getByRole('button', { name: 'Changes' }).click();
    const diff = page.getByRole('region', { name: 'Changes from version 1 to now' });
    expect(await diff.locator('.removed').allInnerTexts()).toContain('- | Team | 10 |');
    expect(await diff.locator('.added').allInnerTexts()).toContain('+ | Team | 12 |');
    // The current version has nothing to compare or restore.
    expect(await history.locator('tr[data-version="2"]').getByRole('button', { name: 'Restore' }).count()).toBe(0);
    await v1.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').getByText('Version 1 restored as version 3').waitFor();
    await page.locator('.markdown td', { hasText: '10' }).waitFor();
    await history.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => history.locator('tr[data-version]').count()).toBe(3);
  });

  it('asks to sign in again over the page when the token stops working, and the unsaved text is still there', async () => {
    const other = await s.signedIn();
    const p2 = other.page;
    await p2.getByRole('link', { name: 'Memory' }).click();
    await memoryNav(p2)
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    const textbox = p2.getByRole('textbox', { name: 'AGENTS.md' });
    await textbox.fill('Rules written while the token went stale.');
    // The token is revoked under the open page (here: replaced by one the server does not know).
    const good = await p2.evaluate(() => localStorage.getItem('stoa.token'));
    await p2.evaluate(() => localStorage.setItem('stoa.token', 'stoa_revoked-token'));
    // Dispatched to the button: another request of the page may meet the bad token first and raise the dialog over it.
    await p2.getByRole('button', { name: 'Save' }).dispatchEvent('click');
    const dialog = p2.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor();
    expect(p2.url()).toMatch(/\/memory/);
    // A program's token still works, folded under the person's own password sign-in.
    await dialog.getByText('Sign in with an API token instead').click();
    const withToken = dialog.locator('details');
    await withToken.getByLabel('API token').fill('stoa_still-wrong');
    await withToken.getByRole('button', { name: 'Continue' }).click();
    await withToken.getByRole('alert').waitFor();
    await withToken.getByLabel('API token').fill(good!);
    await withToken.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await textbox.inputValue()).toBe('Rules written while the token went stale.');
    await p2.getByRole('button', { name: 'Save' }).click();
    await p2.getByText(/Saved — Version \d+/).waitFor();
    await other.context.close();
  });
});
