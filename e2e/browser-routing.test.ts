import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createConversation, putFile, setMemory } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// The open folder lives in the URL: a deep link opens it, Back returns to the folder before, a reload stays.
describe.skipIf(!hasChromium)('web UI: folders in the URL', () => {
  let s: UiServer;

  let agentId: string;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    agentId = (await createAgent(admin, { name: 'Scout', instructions: 'You scout.' })).id;
    await createAgent(admin, { name: 'Keeper', instructions: 'You keep the handbook.' });
    await createConversation(admin, { channel: 'general' });
    await setMemory(admin, { file: 'AGENTS.md' }, 'Rules for every agent.');
    await putFile(admin, { path: 'reports/2026/итоги года.md', source: '# 2026\n' });
    await putFile(admin, { path: 'reports/summary.md', source: '# all\n' });
  });
  afterAll(async () => s?.close());

  it('opens a deep link with its breadcrumb, walks back and forward, and stays on reload', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/reports/2026`);
    await fileRow(page, 'reports/2026/итоги года.md').waitFor();
    expect(await fileRow(page, 'reports/summary.md').count()).toBe(0);
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    expect(await crumbs.getByRole('listitem').allInnerTexts()).toEqual(['Project files', 'reports', '2026']);
    await crumbs.getByRole('link', { name: 'Project files' }).click();
    await page.waitForURL(/\/files$/);
    await page.goBack();
    await fileRow(page, 'reports/2026/итоги года.md').waitFor();

    await page.getByRole('tree').getByRole('treeitem', { name: 'reports', exact: true }).click();
    await fileRow(page, 'reports/summary.md').waitFor();
    expect(new URL(page.url()).pathname).toBe('/files/reports');

    await page.goBack();
    await fileRow(page, 'reports/2026/итоги года.md').waitFor();
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe('/files/reports/2026');
    await page.goForward();
    await fileRow(page, 'reports/summary.md').waitFor();

    await page.reload();
    await fileRow(page, 'reports/summary.md').waitFor();
    expect(new URL(page.url()).pathname).toBe('/files/reports');
    await context.close();
  });

  it('opens a memory file from its URL, walks back to the one before, and stays on reload', async () => {
    const { context, page } = await s.signedIn();
    const textbox = (name: string) => page.getByRole('textbox', { name });
    await page.goto(`${s.url}/memory/AGENTS.md`);
    await expect.poll(() => textbox('AGENTS.md').inputValue()).toBe('Rules for every agent.');
    const files = page.getByRole('navigation', { name: 'Memory files' });
    await files.getByRole('link', { name: 'SOUL.md — Scout' }).click();
    await page.waitForURL(new RegExp(`/memory/SOUL\\.md/${agentId}$`));
    // A never-saved SOUL.md shows the agent's instructions (M1).
    await expect.poll(() => textbox('SOUL.md').inputValue()).toBe('You scout.');
    expect(await files.getByRole('link', { name: 'SOUL.md — Scout' }).getAttribute('aria-current')).toBe('page');

    await page.goBack();
    await expect.poll(() => textbox('AGENTS.md').inputValue()).toBe('Rules for every agent.');
    await page.goForward();
    await expect.poll(() => textbox('SOUL.md').inputValue()).toBe('You scout.');
    await page.reload();
    await expect.poll(() => textbox('SOUL.md').inputValue()).toBe('You scout.');
    expect(new URL(page.url()).pathname).toBe(`/memory/SOUL.md/${agentId}`);
    await context.close();
  });

  it('opens an agent from its URL; Back returns to the list, Forward to the agent, and a reload keeps it open', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/agents`);
    await page.getByRole('link', { name: 'Scout', exact: true }).click();
    await page.waitForURL(new RegExp(`/agents/${agentId}$`));
    const detail = page.getByRole('region', { name: 'Scout' });
    await detail.getByText('You scout.').waitFor();
    expect(await page.locator(`tr[data-agent="${agentId}"]`).getAttribute('aria-current')).toBe('true');
    await page.goBack();
    await page.waitForURL(/\/agents$/);
    await detail.waitFor({ state: 'detached' });
    // The list is still there, without an open agent.
    expect(await page.locator(`tr[data-agent="${agentId}"]`).getAttribute('aria-current')).toBeNull();
    await page.goForward();
    await detail.waitFor();
    await page.reload();
    await detail.getByText('You scout.').waitFor();
    // From the agent to its SOUL.md, by link.
    await detail.getByRole('link', { name: 'Open its SOUL.md' }).click();
    await page.waitForURL(new RegExp(`/memory/SOUL\\.md/${agentId}$`));
    await expect.poll(() => page.getByRole('textbox', { name: 'SOUL.md' }).inputValue()).toBe('You scout.');
    await context.close();
  });
});
