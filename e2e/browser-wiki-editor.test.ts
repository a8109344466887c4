import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { putPage, readFileBytes } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// A 1×1 PNG, so the page's preview shows a real picture.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The textarea's text and what is selected in it. */
const state = (page: Page) =>
  page
    .getByRole('textbox', { name: 'Text' })
    .evaluate((el: HTMLTextAreaElement) => ({ text: el.value, selected: el.value.slice(el.selectionStart, el.selectionEnd) }));

// Issue 31 item 5: the wiki editor works like Outline's and Nextcloud's — a formatting toolbar and shortcuts on
// the selection, `[[` completing page names, pictures pasted or chosen uploaded into the files and shown.
describe.skipIf(!hasChromium)('web UI: the wiki editor', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putPage(admin, { path: 'refunds', title: 'Refunds', text: 'Five days.' });
    await putPage(admin, { path: 'handbook/onboarding', title: 'Onboarding guide', text: 'Welcome.' });
  });
  afterAll(async () => s?.close());

  async function newPage(page: Page, path: string) {
    await page.goto(`${s.url}/wiki`);
    await page.getByRole('button', { name: 'New page' }).click();
    await page.getByRole('textbox', { name: 'Path' }).fill(path);
  }

  it('the toolbar and Ctrl+B/I/K format the selection; the toolbar is one labelled tab stop', async () => {
    const { context, page } = await s.signedIn();
    await newPage(page, 'notes/format');
    const text = page.getByRole('textbox', { name: 'Text' });
    await text.fill('make this loud');
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(10, 14));
    await page.keyboard.press('Control+b');
    expect(await state(page)).toEqual({ text: 'make this **loud**', selected: 'loud' });
    // Undo takes the change back like any typing.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await state(page)).text).toBe('make this loud');
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 9));
    await page.keyboard.press('Control+i');
    expect((await state(page)).text).toBe('make _this_ loud');
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 4));
    await page.keyboard.press('Control+k');
    expect(await state(page)).toEqual({ text: '[make](https://) _this_ loud', selected: 'https://' });

    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    const labels = await toolbar.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    expect(labels).toEqual(['Bold', 'Italic', 'Heading', 'Link', 'Bulleted list', 'Numbered list', 'Task list', 'Code', 'Quote', 'Table', 'Insert image']);
    await text.fill('one\ntwo');
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 7));
    await toolbar.getByRole('button', { name: 'Numbered list' }).click();
    expect((await state(page)).text).toBe('1. one\n2. two');
    await toolbar.getByRole('button', { name: 'Task list' }).click();
    await toolbar.getByRole('button', { name: 'Quote' }).click();
    await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await toolbar.getByRole('button', { name: 'Table' }).click();
    expect((await state(page)).text).toBe('> - [ ] one\n> - [ ] two\n\n| Column 1 | Column 2 |\n| --- | --- |\n|  |  |\n');
    // The preview shows what was made.
    await page.locator('.editor-preview table').waitFor();
    // Arrow keys move inside the toolbar; Tab leaves it.
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Italic');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Insert image');
    await context.close();
  });

  it('typing [[ lists pages, filtered as one types; arrows choose and Enter inserts the link', async () => {
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/wiki`);
    await page.getByRole('button', { name: 'Новая страница' }).click();
    await page.getByRole('textbox', { name: 'Путь' }).fill('notes/links');
    const text = page.getByRole('textbox', { name: 'Текст' });
    await text.click();
    await page.keyboard.type('See [[');
    const list = page.getByRole('listbox', { name: 'Страницы' });
    await list.waitFor();
    expect(await list.getByRole('option').count()).toBe(2);
    await page.keyboard.type('guid');
    await expect.poll(() => list.getByRole('option').allInnerTexts()).toEqual(['Onboarding guide handbook/onboarding']);
    expect(await text.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option').first().getAttribute('id'));
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'detached' });
    await page.keyboard.type(' and [[ref');
    await list.getByRole('option', { name: /Refunds/ }).waitFor();
    await page.keyboard.press('Enter');
    expect(await text.inputValue()).toBe('See [[handbook/onboarding|Onboarding guide]] and [[Refunds]]');
    // Escape closes the list without inserting anything.
    await page.keyboard.type(' [[');
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Сохранить страницу' }).click();
    await page.getByRole('link', { name: 'Onboarding guide' }).waitFor();
    await page.getByRole('link', { name: 'Refunds' }).waitFor();
    await context.close();
  });

  it('a chosen picture and a pasted one are uploaded under wiki-assets/<page> and shown on the page', async () => {
    const { context, page } = await s.signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    await newPage(page, 'notes/pictures');
    const text = page.getByRole('textbox', { name: 'Text' });
    await text.fill('Before. ');
    await page.locator('.md-toolbar input[type=file]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => text.inputValue()).toBe('Before. ![chart](wiki-assets/notes/pictures/chart.png)');
    expect((await readFileBytes(await s.t.admin(), 'wiki-assets/notes/pictures/chart.png')).bytes.equals(PNG)).toBe(true);
    await page.locator('.editor-preview img[alt="chart"]').waitFor();

    // The clipboard holds a picture (as after a screenshot); Ctrl+V in the text uploads it.
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': new Blob([bytes], { type: 'image/png' }) })]);
    }, PNG.toString('base64'));
    await text.press('End');
    await text.press('Control+v');
    await expect
      .poll(() => text.inputValue())
      .toMatch(/^Before\. !\[chart\]\(wiki-assets\/notes\/pictures\/chart\.png\)!\[pasted-\d{14}\]\(wiki-assets\/notes\/pictures\/pasted-\d{14}\.png\)$/);
    // The same name again does not replace the first picture.
    await page.locator('.md-toolbar input[type=file]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => text.inputValue()).toMatch(/!\[chart-\d{14}-\w{4}\]\(wiki-assets\/notes\/pictures\/chart-\d{14}-\w{4}\.png\)$/);
    // Something that is not a picture is refused with a reason.
    await page.locator('.md-toolbar input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.getByRole('alert').getByText('Only PNG, JPEG, GIF and WebP pictures can be put into a page.').waitFor();

    await page.getByRole('button', { name: 'Save page' }).click();
    // The saved page replaces the editor (whose preview showed the pictures too): its three pictures appear.
    await expect.poll(() => page.locator('main img.wiki-image').count()).toBe(3);
    await context.close();
  });
});
