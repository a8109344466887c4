import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createConversation, callTool, showAgent, updateAgent } from '@stoa/core/testing';
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

// Seed 000, "Доступ агента к файлам": on the agent's edit page the "Файлы проекта" section holds the "Доступ к
// файлам" switch and the write and read scopes, with the source's caution for whole-project writing; the trace
// shows, for each call, "Файлы проекта" with "Включено" and the scopes the agent had at that call. In Russian, the
// source's language, word for word.
describe.skipIf(!hasChromium)("web UI: an agent's Project files section and the settings in its trace (seed 000)", { shuffle: false }, () => {
  let s: UiServer;
  let agentId = '';
  let conv = '';

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    agentId = (await createAgent(admin, { name: 'Писарь', files: 'off' })).id;
    conv = (await createConversation(admin, { members: [agentId], kind: 'dialog' })).id;
  });
  afterAll(async () => s?.close());

  it('the switch and the scope choices save the settings; the caution shows when the agent may write to the whole project', async () => {
    const admin = await s.t.admin();
    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/agents/${agentId}`);
    const section = page.locator('.agent-detail [data-project-files]');
    await section.getByText('Файлы проекта', { exact: true }).click();
    const toggle = section.getByRole('switch', { name: 'Доступ к файлам' });
    expect(await toggle.isChecked()).toBe(false);
    const write = section.getByRole('group', { name: 'Куда агент пишет' });
    const read = section.getByRole('group', { name: 'Что агент читает' });
    // Off: the scopes show their defaults and cannot be chosen.
    expect(await write.getByRole('radio', { name: 'Своя папка' }).isChecked()).toBe(true);
    expect(await read.getByRole('radio', { name: 'Весь проект' }).isChecked()).toBe(true);
    expect(await write.getByRole('radio', { name: 'Весь проект' }).isDisabled()).toBe(true);

    await toggle.click();
    await expect.poll(async () => (await showAgent(admin, agentId)).files).toBe('on');
    expect(await section.locator('[data-caution]').count()).toBe(0);

    await write.getByRole('radio', { name: 'Весь проект' }).click();
    const caution = section.locator('[data-caution]');
    await caution.waitFor();
    expect(await caution.innerText()).toBe(
      'В режиме «Весь проект» для записи агент может перезаписать любой файл проекта, включая загруженные людьми. Включайте этот режим, только если агенту действительно нужно обновлять общие файлы.',
    );
    await expect.poll(async () => (await showAgent(admin, agentId)).write).toBe('project');
    expect(await violations(page)).toEqual([]);

    // Reading only its own folder limits writing to it too (A2): no caution, the source's explanation instead.
    await read.getByRole('radio', { name: 'Своя папка' }).click();
    await section.getByText('запись тоже ограничивается своей папкой').waitFor();
    expect(await caution.count()).toBe(0);
    await expect.poll(async () => (await showAgent(admin, agentId)).read).toBe('own');

    // Saved: a reload shows the same choices.
    await page.reload();
    await section.getByText('Файлы проекта', { exact: true }).click();
    expect(await section.getByRole('switch', { name: 'Доступ к файлам' }).isChecked()).toBe(true);
    expect(await section.getByRole('group', { name: 'Что агент читает' }).getByRole('radio', { name: 'Своя папка' }).isChecked()).toBe(true);
    await context.close();
  });

  it('the trace shows the file settings the agent had at each call, not only the current ones', async () => {
    const admin = await s.t.admin();
    await updateAgent(admin, agentId, { files: 'on', write: 'project', read: 'project' });
    expect((await callTool(await s.t.agentCtx(agentId, conv), 'ws_write_file', { path: 'shared/plan.md', content: 'plan\n' })).refused).toBe(false);
    await updateAgent(admin, agentId, { files: 'on', write: 'own', read: 'own' });
    expect((await callTool(await s.t.agentCtx(agentId, conv), 'ws_write_file', { path: 'notes.md', content: 'notes\n' })).refused).toBe(false);

    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/agents/${agentId}`);
    const item = page.locator(`[data-conversation="${conv}"]`);
    await item.getByRole('button').first().click();
    const rows = item.locator('table.trace tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await item.locator('table.trace thead').innerText()).toContain('Конфигурация агента');
    const first = await rows.nth(0).locator('[data-file-settings]').innerText();
    const second = await rows.nth(1).locator('[data-file-settings]').innerText();
    expect(first).toContain('Файлы проекта: Включено');
    expect(first).toContain('Куда агент пишет: Весь проект');
    expect(first).toContain('Что агент читает: Весь проект');
    expect(second).toContain('Куда агент пишет: Своя папка');
    expect(second).toContain('Что агент читает: Своя папка');
    await context.close();
  });
});
