import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile, putPage } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Evaluated, not added as a <script>: the UI's Content-Security-Policy refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function contrastViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: RunOptions) => Promise<AxeResults> } }).axe;
    const r = await axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  });
}
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(18, 22, 29)';

// Issue 31 item 5: dark colours when the system asks for them, a manual choice on the Account page, and every
// main page readable in the dark (axe's contrast rule at zero).
describe.skipIf(!hasChromium)('web UI: the dark theme', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'reports/q1.csv', source: 'a,b\n1,2\n' });
    await putFile(admin, { path: 'readme.md', source: '# Hello\n' });
    await putPage(admin, {
      path: 'handbook',
      title: 'Handbook',
      text: '# Start\n\nSee [[missing page]] and `code`.\n\n> quoted\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```ts\nconst x: number = 1; // one\n```\n',
    });
  });
  afterAll(async () => s?.close());

  it('follows the system: the main pages are dark and pass the contrast check', async () => {
    const { context, page } = await s.signedIn();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('cell', { name: 'readme.md' }).first().waitFor();
    expect(await background(page)).toBe(DARK_BG);
    expect(await contrastViolations(page)).toEqual([]);
    await page.getByRole('row', { name: /readme\.md/ }).click();
    expect(await contrastViolations(page)).toEqual([]);
    for (const [path, ready] of [
      ['/wiki/handbook', () => page.getByRole('heading', { name: 'Handbook', level: 1 })],
      ['/memory', () => page.getByRole('heading', { level: 1 }).first()],
      ['/agents', () => page.getByRole('heading', { level: 1 }).first()],
      ['/audit', () => page.getByRole('heading', { level: 1 }).first()],
      ['/members', () => page.getByRole('heading', { level: 1 }).first()],
      ['/account', () => page.getByRole('heading', { name: 'Appearance' })],
    ] as const) {
      await page.goto(`${s.url}${path}`);
      await ready().waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      expect({ path, violations: await contrastViolations(page) }).toEqual({ path, violations: [] });
    }
    // The wiki editor too, with its toolbar and the page list of [[.
    await page.goto(`${s.url}/wiki/handbook`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Text' }).press('End');
    await page.keyboard.type('[[');
    await page.getByRole('listbox', { name: 'Pages' }).waitFor();
    expect(await contrastViolations(page)).toEqual([]);
    await context.close();
  });

  it('the Account page overrides the system, and the choice is remembered in this browser', async () => {
    const { context, page } = await s.signedIn();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${s.url}/account`);
    const group = page.getByRole('group', { name: 'Colours (remembered in this browser)' });
    expect(await group.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);
    await group.getByRole('radio', { name: 'Light' }).check();
    expect(await background(page)).toBe(LIGHT_BG);
    await page.reload();
    await group.getByRole('radio', { name: 'Light' }).waitFor();
    expect(await group.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    expect(await background(page)).toBe(LIGHT_BG);
    // Dark on a light system.
    await page.emulateMedia({ colorScheme: 'light' });
    await group.getByRole('radio', { name: 'Dark' }).check();
    expect(await background(page)).toBe(DARK_BG);
    await page.goto(`${s.url}/files`);
    expect(await background(page)).toBe(DARK_BG);
    expect(await contrastViolations(page)).toEqual([]);
    await page.goto(`${s.url}/account`);
    await group.getByRole('radio', { name: 'System' }).check();
    expect(await background(page)).toBe(LIGHT_BG);
    await context.close();
  });
});
