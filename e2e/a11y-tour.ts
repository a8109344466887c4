import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { createAgent, createConversation, putFile, putPage } from '@stoa/core/testing';
import { fileRow, newTestContext, type UiServer } from './browser-helpers.js';

// Evaluated, not added as a <script>: the UI's Content-Security-Policy (rightly) refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core on what the page shows now and returns its violations, one line each, empty when there are none. */
export async function violations(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: RunOptions) => Promise<AxeResults> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return found.map((v) => `${where}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const langs = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'ru', locale: 'ru-RU' },
  { lang: 'zh', locale: 'zh-CN' },
] as const;

/**
 * Words a person typed (names of files, folders, pages, agents, people, channels), the product's name and the
 * names of formats: the only Latin words a page in Russian or Chinese may show.
 */
const typedNames = new Set(
  [
    'Stoa',
    'reports',
    'summary',
    'plan',
    'txt',
    'md',
    'handbook',
    'refunds',
    'Refunds',
    'checklist',
    'Checklist',
    'meeting',
    'Meeting',
    'missing',
    'Researcher',
    'general',
    'admin',
    'Admin',
    'agent',
    'SOUL',
    'MEMORY',
    'AGENTS',
    'PDF',
    'Word',
    'API',
    'MCP',
    'Notes',
    'app',
    'You',
    'research',
    'things',
    // Units, formats and terms glossed on purpose: "PIN-код", "Ключ доступа (passkey)".
    'KiB',
    'MiB',
    'GiB',
    'zip',
    'PIN',
    'passkey',
  ].map((w) => w.toLowerCase()),
);

/**
 * Latin words shown as text on the page that are not names someone typed: UI strings left in English. Text a
 * person wrote (rendered markdown, code, fields, the language picker's own names) is skipped.
 */
async function englishWords(page: Page): Promise<string[]> {
  const words = await page.evaluate(() => {
    const skip = 'code, pre, .markdown, .snippet, textarea, input, select, script, style, [aria-hidden="true"]';
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip)) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
      // Paths, e-mail-like tokens and the CLI's commands ("stoa login-link") are names; Latin letters between them are words.
      const text = (n.textContent ?? '').replace(/\bstoa [a-z-]+/g, ' ');
      for (const token of text.split(/\s+/)) if (!/[/@._:]/.test(token)) for (const w of token.match(/[A-Za-z]{3,}/g) ?? []) out.push(w);
    }
    return out;
  });
  return [...new Set(words.filter((w) => !typedNames.has(w.toLowerCase())))];
}

/** The project every tour walks through: folders, files, wiki pages with a table and a task list, an agent. */
export async function seedTour(s: UiServer): Promise<void> {
  const admin = await s.t.admin();
  await putFile(admin, { path: 'reports/2026/summary.md', source: '# Summary\n\nAll good.\n' });
  await putFile(admin, { path: 'reports/plan.txt', source: 'plan' });
  await createAgent(admin, { name: 'Researcher', instructions: 'You research things.', files: 'on' });
  await createConversation(admin, { channel: 'general' });
  await putPage(admin, { path: 'handbook/refunds', title: 'Refunds', text: '# Refunds\n\nFive days.\n' });
  await putPage(admin, {
    path: 'handbook/checklist',
    title: 'Checklist',
    text:
      '# Checklist\n\n| Step | Owner | Note |\n| --- | --- | --- |\n| Sign | Ana | ' +
      'a-long-note-that-no-phone-can-fit-on-one-line-'.repeat(3) +
      ' |\n\n- [x] signed\n- [ ] paid\n\n```\n' +
      'const longLine = "a line of code wider than any phone";'.repeat(3) +
      '\n```\n\nSee [[handbook/refunds]] and [[handbook/missing]].\n',
  });
}

/**
 * Registers an MCP client (as an application would) and returns its consent page's address, or null when the
 * server refuses (the consent page is then checked with its error).
 */
async function consentUrl(s: UiServer): Promise<string> {
  const redirect = 'http://127.0.0.1:9/callback';
  const res = await fetch(`${s.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect], client_name: 'Notes app', token_endpoint_auth_method: 'none' }),
  });
  const clientId = res.ok ? ((await res.json()) as { client_id: string }).client_id : 'unknown';
  const q = new URLSearchParams({ client_id: clientId, redirect_uri: redirect, code_challenge: 'x'.repeat(43), resource: `${s.url}/mcp`, state: 's' });
  return `${s.url}/consent?${q}`;
}

/**
 * Every page of the UI and the dialogs reachable from them, in one language at one window size, in one browser
 * context: the axe-core violations found, and (in Russian and Chinese) the English UI words seen.
 */
export async function tour(
  s: UiServer,
  locale: string,
  viewport: { width: number; height: number },
  lang: string,
): Promise<{ found: string[]; english: string[] }> {
  const found: string[] = [];
  const english: string[] = [];
  const where = `${lang} ${viewport.width}`;
  const context = await newTestContext(s.browser, { locale, viewport });
  const page = await context.newPage();
  const check = async (what: string) => {
    found.push(...(await violations(page, `${where} ${what}`)));
    if (lang !== 'en') english.push(...(await englishWords(page)).map((w) => `${where} ${what}: ${w}`));
  };
  try {
    await page.goto(`${s.url}/login`);
    await page.locator('input[name=password]').waitFor();
    await check('login');
    await page.goto(`${s.url}/join?code=inv_unknown&user=someone`);
    await page.locator('input[name=new-password]').waitFor();
    await check('join');
    await page.goto(await s.loginLink());
    await page.waitForURL(/\/files$/);

    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/plan.txt').waitFor();
    await check('files');
    await fileRow(page, 'reports/plan.txt').locator('button.file-name').click();
    await page.locator('pre.preview-text').waitFor();
    await page.locator('.versions tr, .versions li').first().waitFor();
    await check('file preview');
    await page.keyboard.press('Escape');
    await page.locator('aside.preview').waitFor({ state: 'detached' });
    await fileRow(page, 'reports/plan.txt').locator('button.danger').click();
    await page.getByRole('dialog').waitFor();
    await check('delete dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.goto(`${s.url}/wiki`);
    await page.locator('.wiki-tree li').first().waitFor();
    await check('wiki home');
    await page.goto(`${s.url}/wiki/handbook/checklist`);
    await page.locator('.markdown .task-list-item').first().waitFor();
    await page.locator('.markdown a.wiki-link:not(.missing)').waitFor();
    await check('wiki page with a task list and a table');
    await page.locator('.wiki-view > .row button').first().click();
    await page.locator('.wiki-editor textarea').waitFor();
    await check('wiki editor');

    await page.goto(`${s.url}/memory`);
    await page.locator('nav.side li a').first().click();
    await page.locator('.memory-page textarea').waitFor();
    await page.locator('table.history').waitFor();
    await check('memory');

    await page.goto(`${s.url}/agents`);
    await page.locator('tr[data-agent]').waitFor();
    await check('agents');
    await page.locator('tr[data-agent] a.agent-name').click();
    await page.locator('.agent-detail').waitFor();
    await page.locator('.agent-tokens [data-token-id], .agent-tokens .empty').first().waitFor();
    await page.locator('.agent-conversations p').first().waitFor();
    await check('agent');
    await page.locator('.agent-tokens .row button').click();
    await page.locator('.token-dialog').waitFor();
    await check('new token dialog');
    await page.keyboard.press('Escape');

    await page.goto(`${s.url}/members`);
    await page.locator('tr[data-member]').first().waitFor();
    await check('members');
    await page.locator('.members-page > p > button').click();
    await page.locator('.invite-dialog select').waitFor();
    await check('invite dialog');
    await page.keyboard.press('Escape');

    await page.goto(`${s.url}/audit`);
    await page.locator('.audit-page table').waitFor();
    await check('audit');
    await page.goto(`${s.url}/account`);
    await page.locator('.account-page section').first().waitFor();
    await check('account');
    await page.goto(`${s.url}/search?q=refunds`);
    await page.locator('.search-page li').first().waitFor();
    await check('search with results');

    await page.goto(await consentUrl(s));
    await page.locator('.consent select[name=agent] option, .consent [role=alert]').first().waitFor({ state: 'attached' });
    await check('consent');
  } finally {
    await context.close();
  }
  return { found, english: [...new Set(english)] };
}
