import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Rights (F14), "Created by" (F6) and the three UI languages, in a real Chromium against a real server.
describe.skipIf(!hasChromium)('web UI: roles, created-by and languages', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'shared/price-list.md', source: '# Prices\n' });
    const agent = await createAgent(admin, { name: 'Researcher', files: 'on' });
    const agentCtx = await s.t.agentCtx(agent.id);
    await putFile(agentCtx, { path: `agents/${agent.id}/summary.md`, source: 'summary' });
  });
  afterAll(async () => s?.close());

  it('a viewer sees upload, new folder, rename and delete disabled, and can still download', async () => {
    const viewer = await s.t.userCtx('vera', 'viewer');
    const { context, page } = await s.signedIn({ as: viewer });
    await page.getByText('vera · viewer').waitFor();
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New folder' }).isDisabled()).toBe(true);
    await page.getByRole('tree').getByRole('treeitem', { name: 'shared' }).click();
    const row = fileRow(page, 'shared/price-list.md');
    expect(await row.getByRole('button', { name: 'Rename price-list.md' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Delete price-list.md' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Download price-list.md' }).isDisabled()).toBe(false);
    await page.getByText('only editors upload').waitFor();
    await context.close();
  });

  it('tags agent-written files "agent: <name>" and leaves people\'s uploads empty', async () => {
    const { context, page } = await s.signedIn();
    await page.getByRole('searchbox', { name: 'Search files' }).fill('.md');
    const agentRow = page.locator('table.files tr[data-path$="/summary.md"]');
    expect(await agentRow.locator('.tag.agent').innerText()).toBe('agent: Researcher');
    expect(await fileRow(page, 'shared/price-list.md').locator('td.created-by').innerText()).toBe('');
    await context.close();
  });

  it('defaults to the browser language: Russian labels', async () => {
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.getByRole('heading', { name: 'Файлы' }).waitFor();
    await page.getByText(/^Занято \d+(\.\d)? (B|KiB) из 1\.0 GiB$/).waitFor();
    expect(await page.getByRole('button', { name: 'Загрузить', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Новая папка' }).isVisible()).toBe(true);
    expect(await page.locator('table.files th').allInnerTexts()).toEqual(['', 'Имя', 'Кем создан', 'Размер', 'Тип', 'Изменён', 'Действия']);
    await page.getByRole('tree').getByRole('treeitem', { name: 'Файлы проекта' }).waitFor();
    await context.close();
  });

  it('switches to Chinese with the language picker and renders the glyphs', async () => {
    const { context, page } = await s.signedIn();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
    await page.getByRole('heading', { name: '文件' }).waitFor();
    expect(await page.getByRole('button', { name: '上传', exact: true }).isVisible()).toBe(true);
    expect(await page.locator('table.files th').allInnerTexts()).toEqual(['', '名称', '创建者', '大小', '类型', '修改时间', '操作']);
    await page.getByRole('searchbox', { name: '搜索文件' }).fill('summary');
    await page.locator('.tag.agent', { hasText: '智能体：Researcher' }).waitFor();
    await page.screenshot({ path: process.env.STOA_UI_SCREENSHOT ?? '/tmp/stoa-ui-zh.png' });
    // The choice is remembered in this browser.
    await page.reload();
    await page.getByRole('heading', { name: '文件' }).waitFor();
    await context.close();
  });

  it('an admin adds a member, hands out a token, and the member signs in with it', async () => {
    const { context, page } = await s.signedIn();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('eve');
    await page.locator('form.card').getByRole('combobox', { name: 'Role' }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add member' }).click();
    const row = page.locator('tr[data-member="eve"]');
    await row.waitFor();
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/members') && r.ok()),
      row.getByRole('combobox', { name: 'Role eve' }).selectOption('editor'),
    ]);
    await row.getByRole('button', { name: 'New token' }).click();
    const token = await page.locator('code.token').innerText();
    expect(token).toMatch(/\S{16,}/);

    const eve = await s.browser.newContext();
    const p2 = await eve.newPage();
    await p2.goto(`${s.url}/login`);
    await p2.getByText('Sign in with an API token instead').click();
    await p2.locator('details').getByLabel('API token').fill(token);
    await p2.locator('details').getByRole('button', { name: 'Sign in' }).click();
    await p2.getByText('eve · editor').waitFor();
    expect(await p2.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(false);
    await eve.close();

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });
});
