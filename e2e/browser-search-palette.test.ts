import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createAgent, makePdf, processPendingAssets, putFile, putPage, setMemory } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

/** Polls as long as a missing element waits (15 s): a loaded machine renders late. */
const poll = <T>(f: () => T | Promise<T>) => expect.poll(f, { timeout: 15_000 });
const box = (page: Page) => page.getByRole('searchbox', { name: 'Search everything' });
const hits = (page: Page) => page.locator('ul.hits > li');
const chip = (page: Page, name: RegExp) => page.getByRole('group', { name: 'Show kinds' }).getByRole('button', { name });
/** Whether an element's top is inside the window (it was scrolled to). */
const inView = (el: Locator) =>
  el.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight;
  });

// Finding anything at once (issue 31): search as you type, hits that open what they found, the command palette,
// and the keyboard shortcuts, in a real Chromium against a real server.
// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe.skipIf(!hasChromium)('web UI: search as you type, the command palette and shortcuts', { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;
  let agentId: string;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    for (let i = 0; i < 22; i++) await putFile(admin, { path: `zoo/quokka-${String(i).padStart(2, '0')}.md`, source: `quokka number ${i} hops` });
    const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} about islands and ferries.`).join('\n\n');
    await putPage(admin, {
      path: 'animals/marsupials',
      title: 'Marsupials',
      text: `# Marsupials\n\n${filler}\n\n## Habitat of the **quokka**\n\nThe **quokka** lives on [[places/rottnest|Rottnest Island]], see [the map](https://example.test/map).`,
    });
    const agent = await createAgent(admin, { name: 'Researcher', instructions: 'You research things.' });
    agentId = agent.id;
    await setMemory(admin, { file: 'SOUL.md', agent: agent.id }, 'You are fond of the quokka.');
    await putFile(admin, { path: 'docs/field-guide.pdf', source: makePdf(['Field guide', 'The quokka smiles on page two.']) });
    await processPendingAssets(s.t.platform);
    ({ page } = await s.signedIn());
  });
  afterAll(async () => s?.close());

  it('searches as you type, with the query in the address, counts per kind, kind chips and More results', async () => {
    await box(page).pressSequentially('quok');
    await poll(() => page.url()).toMatch(/\/search\?q=quok$/);
    await box(page).pressSequentially('ka');
    await poll(() => page.url()).toMatch(/\/search\?q=quokka$/);
    // Files 22, Wiki 1, Memory 1, Documents 1: All counts them together; the first page shows 20.
    await chip(page, /^All\s*25$/).waitFor();
    await chip(page, /^Files\s*22$/).waitFor();
    await chip(page, /^Memory\s*1$/).waitFor();
    await chip(page, /^Documents\s*1$/).waitFor();
    await poll(() => hits(page).count()).toBe(20);
    await page.getByRole('button', { name: 'More results' }).click();
    await poll(() => hits(page).count()).toBe(25);
    expect(await page.getByRole('button', { name: 'More results' }).count()).toBe(0);

    // Snippets read as text: the wiki page's markdown marks are gone, the matched word is marked.
    const wiki = hits(page).filter({ hasText: 'Marsupials' });
    const snippet = await wiki.locator('.snippet').innerText();
    expect(snippet).toContain('The quokka lives on Rottnest Island, see the map.');
    expect(snippet).not.toMatch(/\*\*|\[\[|\]\(|(^|\s)#/);
    expect((await wiki.locator('mark').allInnerTexts()).map((m) => m.toLowerCase())).toContain('quokka');

    await chip(page, /^Wiki/).click();
    await poll(() => page.url()).toMatch(/\/search\?q=quokka&kind=wiki$/);
    await poll(() => hits(page).count()).toBe(1);
    expect(await chip(page, /^Wiki/).getAttribute('aria-pressed')).toBe('true');
    // A reload comes back to the same query, kind and results.
    await page.reload();
    await poll(() => hits(page).count()).toBe(1);
    expect(await box(page).inputValue()).toBe('quokka');
    await chip(page, /^All/).click();
    await poll(() => page.url()).toMatch(/\/search\?q=quokka$/);
    await poll(() => hits(page).count()).toBe(20);
  });

  it('opens a wiki hit at the heading of the match, a memory hit with its file selected, a file hit in its preview', async () => {
    await chip(page, /^Wiki/).click();
    await hits(page).filter({ hasText: 'Marsupials' }).getByRole('button').click();
    await page.waitForURL(/\/wiki\/animals\/marsupials#Habitat%20of%20the%20quokka$/);
    const heading = page.getByRole('heading', { name: 'Habitat of the quokka' });
    await heading.waitFor();
    await poll(() => inView(heading)).toBe(true);
    // Back returns to the results as they were.
    await page.goBack();
    await poll(() => page.url()).toMatch(/\/search\?q=quokka&kind=wiki$/);
    await poll(() => hits(page).count()).toBe(1);

    await chip(page, /^Memory/).click();
    await hits(page).filter({ hasText: 'SOUL.md' }).getByRole('button').click();
    await page.waitForURL(new RegExp(`/memory/SOUL\\.md/${agentId}$`));
    await poll(() => page.getByRole('textbox', { name: 'SOUL.md' }).inputValue()).toBe('You are fond of the quokka.');
    await page.goBack();

    // A document opens in the preview at the page of the match.
    await chip(page, /^Documents/).click();
    await hits(page).filter({ hasText: 'docs/field-guide.pdf' }).getByRole('button').click();
    await poll(() => page.locator('iframe.preview-pdf').getAttribute('src')).toMatch(/#page=2$/);
    await page.goBack();

    await chip(page, /^Files/).click();
    await hits(page).filter({ hasText: 'zoo/quokka-03.md' }).getByRole('button').click();
    await page.locator('.preview-path', { hasText: 'zoo/quokka-03.md' }).waitFor();
  });

  it('opens the command palette with Ctrl+K anywhere and runs files, pages, agents and actions from the keyboard', async () => {
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    const input = dialog.getByRole('combobox');
    const options = dialog.getByRole('option');
    await page.keyboard.press('Control+k');
    await input.waitFor();
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await dialog.getByRole('listbox').count()).toBe(1);
    // A file by a few letters of its path: the first option is chosen; Down chooses the next, Enter runs it.
    await input.fill('zoo quokka 07');
    await options.filter({ hasText: 'zoo/quokka-07.md' }).first().waitFor();
    expect(await options.first().innerText()).toContain('quokka-07.md');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.preview-path', { hasText: 'zoo/quokka-07.md' }).waitFor();

    // A wiki page, then an agent, then a page of the app.
    await page.keyboard.press('Control+k');
    await input.fill('marsup');
    await options.filter({ hasText: 'Marsupials' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/wiki\/animals\/marsupials$/);
    await page.keyboard.press('Control+k');
    await input.fill('researcher');
    await options.filter({ hasText: 'Researcher' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/agents/${agentId}$`));
    await page.keyboard.press('Control+k');
    await input.fill('go mem');
    await poll(() => options.first().innerText()).toContain('Go to Memory');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/memory$/);

    // Actions that open something on their page: New folder on Files, New page in the wiki.
    await page.keyboard.press('Control+k');
    await input.fill('new folder');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/files/);
    await page.locator('form.new-folder input').waitFor();
    await page.keyboard.press('Control+k');
    await input.fill('new wiki page');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/wiki/);
    await page.locator('form.wiki-editor').waitFor();

    // Esc closes it and changes nothing; words no name has search everything.
    await page.keyboard.press('Control+k');
    await input.fill('hops');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+k');
    await input.fill('hops');
    await options.filter({ hasText: 'Search everything for “hops”' }).waitFor();
    await options.filter({ hasText: 'Search everything for “hops”' }).click();
    await page.waitForURL(/\/search\?q=hops$/);
  });

  it('lists the shortcuts under ?, and runs the file list from the keyboard: / ↑ ↓ Enter F2 Delete Esc', async () => {
    await page.goto(`${s.url}/files/zoo`);
    await fileRow(page, 'zoo/quokka-00.md').waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const key of ['Ctrl+K', 'Ctrl+S', 'F2', 'Delete', 'Esc']) expect(await help.innerText()).toContain(key);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // "/" goes to the name search; a "?" typed there is a letter; Esc clears it.
    const search = page.getByRole('searchbox', { name: 'Search files' });
    await page.keyboard.press('/');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('quokka-1?');
    expect(await search.inputValue()).toBe('quokka-1?');
    expect(await help.count()).toBe(0);
    await page.keyboard.press('Escape');
    await poll(() => search.inputValue()).toBe('');

    // Arrows move the selection through the rows; Enter opens the file.
    await search.blur();
    await page.keyboard.press('ArrowDown');
    const focusedRow = () => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-path') ?? null);
    await poll(focusedRow).toBe('zoo/quokka-00.md');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await poll(focusedRow).toBe('zoo/quokka-01.md');
    await page.keyboard.press('Enter');
    await page.locator('.preview-path', { hasText: 'zoo/quokka-01.md' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.preview').waitFor({ state: 'detached' });

    // F2 opens the rename of the selected file; Delete asks first.
    await fileRow(page, 'zoo/quokka-02.md').locator('button.file-name').focus();
    await page.keyboard.press('F2');
    const rename = fileRow(page, 'zoo/quokka-02.md').getByRole('textbox').or(page.getByRole('dialog').getByRole('textbox')).first();
    await rename.waitFor();
    expect(await rename.inputValue()).toContain('quokka-02.md');
    await page.keyboard.press('Escape');
    await rename.waitFor({ state: 'detached' });
    await fileRow(page, 'zoo/quokka-02.md').locator('button.file-name').focus();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('zoo/quokka-02.md');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await fileRow(page, 'zoo/quokka-02.md').count()).toBe(1);

    // Esc clears the ticks.
    await fileRow(page, 'zoo/quokka-04.md').locator('input[type=checkbox]').check();
    await page.locator('form.bulk-bar').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('form.bulk-bar').waitFor({ state: 'detached' });
  });

  it('saves with Ctrl+S in the memory editor and in the wiki editor', async () => {
    await page.goto(`${s.url}/memory/SOUL.md/${agentId}`);
    const soul = page.getByRole('textbox', { name: 'SOUL.md' });
    await poll(() => soul.inputValue()).toBe('You are fond of the quokka.');
    await soul.fill('You are fond of the quokka and the numbat.');
    await page.keyboard.press('Control+s');
    await page.getByText(/Saved — Version 2/).waitFor();

    await page.goto(`${s.url}/wiki/animals/marsupials`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const text = page.locator('form.wiki-editor textarea');
    await text.fill('# Marsupials\n\nNumbats too.');
    await page.keyboard.press('Control+s');
    await page.locator('form.wiki-editor').waitFor({ state: 'detached' });
    await page.getByText('Numbats too.').waitFor();
  });

  it('speaks Russian and Chinese in the palette and the shortcuts list', async () => {
    for (const [locale, palette, shortcuts] of [
      ['ru-RU', 'Палитра команд', 'Сочетания клавиш'],
      ['zh-CN', '命令面板', '键盘快捷键'],
    ] as const) {
      const { page: p, context } = await s.signedIn({ locale });
      await box(p).or(p.locator('input.global-search')).first().waitFor();
      await p.keyboard.press('Control+k');
      await p.getByRole('dialog', { name: palette }).waitFor();
      await p.keyboard.press('Escape');
      await p.keyboard.press('?');
      await p.getByRole('dialog', { name: shortcuts }).waitFor();
      await context.close();
    }
  });
});
