import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAgent, createConversation, putFile, putPage, setMemory } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// `npm run screenshots` (STOA_SCREENSHOTS=1) writes them into docs/screenshots for the README; any other run
// writes them to a temporary folder, so running the tests never changes files of the repository.
const dir = process.env.STOA_SCREENSHOTS === '1' ? fileURLToPath(new URL('../docs/screenshots', import.meta.url)) : join(tmpdir(), 'stoa-screenshots');

const langs = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'ru', locale: 'ru-RU' },
  { lang: 'zh', locale: 'zh-CN' },
] as const;

/** The four pages of the README, each waited for until its content is on screen. */
const views: Array<{ name: string; open: (page: Page, url: string) => Promise<void> }> = [
  {
    name: 'files',
    open: async (page, url) => {
      await page.goto(`${url}/files/reports`);
      await fileRow(page, 'reports/plan.md').waitFor();
      await fileRow(page, 'reports/plan.md').locator('button.file-name').click();
      await page.locator('.preview-rendered').waitFor();
    },
  },
  {
    name: 'wiki',
    open: async (page, url) => {
      await page.goto(`${url}/wiki/handbook/refunds`);
      await page.locator('.markdown table').waitFor();
    },
  },
  {
    name: 'memory',
    open: async (page, url) => {
      await page.goto(`${url}/memory`);
      await page.locator('nav.side li a').first().click();
      await page.locator('table.history tr[data-version]').first().waitFor();
    },
  },
  {
    name: 'agents',
    open: async (page, url) => {
      await page.goto(`${url}/agents`);
      await page.locator('tr[data-agent]').first().waitFor();
    },
  },
  {
    // Issue 31: an admin invites a person; the one-time link, with Copy.
    name: 'invite',
    open: async (page, url) => {
      await page.goto(`${url}/members`);
      await page.locator('.members-page table').waitFor();
      await page.locator('.members-page > p > button').click();
      await page.locator('.invite-dialog form button[type=submit]').click();
      await page.locator('.invite-dialog input.invite-link').waitFor();
    },
  },
];

// Screenshots of Files, Wiki, Memory, Agents, inviting and signing in in English, Russian and Chinese, and on a phone.
describe.skipIf(!hasChromium)('web UI: screenshots', () => {
  let s: UiServer;

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'reports/plan.md', source: '# Plan 2026\n\n- Ship the web UI\n- Measure search\n- Отчёт за квартал\n- 季度报告\n' });
    await putFile(admin, { path: 'reports/budget.csv', source: 'item,amount\nservers,1200\n' });
    await putFile(admin, { path: 'reports/2026/q1.md', source: '# Q1\n' });
    await putFile(admin, { path: 'contracts/lease.txt', source: 'Lease' });
    const researcher = await createAgent(admin, { name: 'Researcher', instructions: 'You research things and cite the files you used.', files: 'on' });
    await createAgent(admin, { name: 'Editor', instructions: 'You keep the handbook tidy.', files: 'on', write: 'project' });
    await putFile(await s.t.agentCtx(researcher.id), { path: `agents/${researcher.id}/notes.md`, source: 'notes' });
    await createConversation(admin, { channel: 'general' });
    await setMemory(admin, { file: 'AGENTS.md' }, 'Answer in the language of the question.\nCite the file you used.');
    await putPage(admin, { path: 'handbook/onboarding', title: 'Onboarding', text: 'Start with [[handbook/refunds]].' });
    await putPage(admin, {
      path: 'handbook/refunds',
      title: 'Refunds',
      text: '# Refunds\n\nA refund takes **five** working days. See [[handbook/onboarding]].\n\n| Plan | Days |\n| --- | ---: |\n| Team | 5 |\n| Enterprise | 3 |\n\n- [x] Policy approved\n- [ ] Translated',
    });
  });
  afterAll(async () => s?.close());

  it.each(langs)('Files, Wiki, Memory and Agents in $lang', async ({ lang, locale }) => {
    const { context, page } = await s.signedIn({ locale });
    await page.setViewportSize({ width: 1280, height: 760 });
    for (const v of views) {
      await v.open(page, s.url);
      await page.screenshot({ path: join(dir, `${v.name}-${lang}.png`) });
    }
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : lang);
    await context.close();
  });

  it.each(langs)('the sign-in page in $lang', async ({ lang, locale }) => {
    const context = await s.browser.newContext({ locale, viewport: { width: 1280, height: 760 } });
    const page = await context.newPage();
    await page.goto(`${s.url}/login`);
    await page.locator('input[name=password]').waitFor();
    await page.screenshot({ path: join(dir, `sign-in-${lang}.png`) });
    await context.close();
  });

  it('Files (with the folder drawer open), Wiki, Memory and Agents on a phone', async () => {
    const { context, page } = await s.signedIn();
    await page.setViewportSize({ width: 360, height: 740 });
    for (const v of views) {
      await v.open(page, s.url);
      if (v.name === 'files') await page.keyboard.press('Escape');
      await page.screenshot({ path: join(dir, `${v.name}-phone.png`) });
    }
    await page.goto(`${s.url}/files/reports`);
    await page.getByRole('button', { name: 'Folders' }).click();
    await page.getByRole('tree').waitFor();
    await page.screenshot({ path: join(dir, 'files-phone-drawer.png') });
    await context.close();
  });
});
