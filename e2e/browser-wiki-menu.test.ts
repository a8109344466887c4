import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putPage } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Evaluated, not added as a <script>: the UI's Content-Security-Policy refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: RunOptions) => Promise<AxeResults> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

// Seed 001, "Вики", in its own words (Russian): the editor's fields "Путь", "Название", "Текст", "Кто это
// видит" and "Сохранить страницу"; "Сюда ссылаются"; and the "…" menu of a page with "Переименовать" (a new
// title saved as a new version), "Переместить" and "Удалить".
describe.skipIf(!hasChromium)('web UI: the wiki in the words of seed 001, and its "…" menu', { shuffle: false }, () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    await putPage(await s.t.admin(), { path: 'handbook/onboarding', title: 'Онбординг', text: 'См. [[handbook/refunds]].' });
  });
  afterAll(async () => s?.close());

  it("a new page is written with the source's field names", async () => {
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.getByRole('link', { name: 'Вики' }).click();
    await page.getByRole('button', { name: 'Новая страница' }).click();
    await page.getByRole('textbox', { name: 'Путь' }).fill('handbook/refunds');
    const title = page.getByRole('textbox', { name: 'Название' });
    expect(await title.getAttribute('placeholder')).toBe('Если оставить пустым, оно берётся из пути');
    await title.fill('Возвраты');
    await page.getByRole('textbox', { name: 'Текст' }).fill('Возврат занимает **пять** дней.');
    expect(await page.getByRole('combobox', { name: 'Кто это видит' }).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Сохранить страницу' }).click();
    await page.getByRole('heading', { name: 'Возвраты', level: 1 }).waitFor();
    await page.locator('.linked-here').getByRole('heading', { name: 'Сюда ссылаются' }).waitFor();
    await page.locator('.linked-here').getByRole('link', { name: 'Онбординг' }).waitFor();
    await context.close();
  });

  it('the "…" menu renames a page as a new version, and lists Move and Delete; Escape closes it', async () => {
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/wiki/handbook/refunds`);
    await page.getByRole('heading', { name: 'Возвраты', level: 1 }).waitFor();
    const more = page.getByRole('button', { name: 'Ещё действия' });
    expect(await more.innerText()).toBe('…');
    await more.click();
    const menu = page.getByRole('menu', { name: 'Ещё действия' });
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Переименовать', 'Переместить', 'Удалить']);
    expect(await violations(page)).toEqual([]);
    // The keyboard: focus starts on the first item, arrows move, Escape closes and returns to the button.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Переименовать');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Переместить');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Ещё действия');

    await more.click();
    await menu.getByRole('menuitem', { name: 'Переименовать' }).click();
    const form = page.getByRole('form', { name: 'Переименовать' });
    await form.getByText('Меняет название и сохраняет новую версию.').waitFor();
    await form.getByRole('textbox', { name: 'Название' }).fill('Возврат денег');
    await form.getByRole('button', { name: 'Переименовать' }).click();
    await page.getByRole('heading', { name: 'Возврат денег', level: 1 }).waitFor();
    // Same path, a new version with the new title; the old one is in the history.
    expect(page.url()).toMatch(/\/wiki\/handbook\/refunds$/);
    await page.locator('.wiki-history').getByRole('button', { name: 'Показать' }).click();
    const rows = page.locator('.wiki-history tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Возврат денег'), expect.stringContaining('Возвраты')]);

    await more.click();
    await menu.getByRole('menuitem', { name: 'Переместить' }).click();
    await page
      .getByRole('form', { name: 'Переместить' })
      .getByText('Вложенные страницы также перемещаются. Ссылки на старый путь не меняются: они будут открываться как отсутствующая страница.')
      .waitFor();
    await context.close();
  });

  it('a viewer cannot open the menu', async () => {
    const viewer = await s.t.userCtx('vera', 'viewer');
    const { context, page } = await s.signedIn({ as: viewer, locale: 'ru-RU' });
    await page.goto(`${s.url}/wiki/handbook/onboarding`);
    await page.getByRole('heading', { name: 'Онбординг', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Ещё действия' }).isDisabled()).toBe(true);
    await context.close();
  });
});
