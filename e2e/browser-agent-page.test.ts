import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// An agent's own page (A1, A4, A7): a token shown once that works over HTTP, a conversation started there, its trace and the
// write count, then revoking the token. A story: the steps keep their order.
describe.skipIf(!hasChromium)("web UI: an agent's page — tokens, conversations, trace, write counts", { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;
  let id = '';
  let token = '';
  let conv = '';

  beforeAll(async () => {
    s = await startUiServer({ agentWritesPerConversation: 5 });
    ({ page } = await s.signedIn());
  });
  afterAll(async () => s?.close());

  const writeAsAgent = (path: string) =>
    fetch(`${s.url}/api/v1/projects/default/tools/ws_write_file/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-stoa-conversation': conv },
      body: JSON.stringify({ arguments: { path, content: 'written by the agent' } }),
    });

  it('creates an agent, refuses a second one with the same name, and shows a new token once', async () => {
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Scribe');
    await page.locator('.agent-form').getByRole('combobox', { name: 'File access' }).selectOption('on');
    await page.locator('.agent-form').getByRole('combobox', { name: 'Where the agent writes' }).selectOption('project');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const row = page.locator('tr[data-agent]', { hasText: 'Scribe' });
    await row.waitFor();
    id = (await row.getAttribute('data-agent'))!;
    await page.getByRole('textbox', { name: 'Name' }).fill('Scribe');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('alert').getByText('An agent with this name already exists').waitFor();

    await row.getByRole('link', { name: 'Scribe' }).click();
    await page.waitForURL(new RegExp(`/agents/${id}$`));
    const detail = page.locator('.agent-detail');
    await detail.getByText('Not published').waitFor();
    await detail.getByText('No tokens for this agent.').waitFor();
    await detail.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New token' });
    await dialog.getByText('shown only this once').waitFor();
    token = (await dialog.locator('[data-token]').innerText()).trim();
    expect(token.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Listed by its ID, never shown again.
    await detail.locator('[data-token-id]').first().waitFor();
    expect(await detail.innerText()).not.toContain(token);
  });

  it('starts a conversation from the page; the token works in it over HTTP, and its trace and write count appear', async () => {
    const detail = page.locator('.agent-detail');
    await detail.getByText('This agent has not taken part in a conversation yet.').waitFor();
    await detail.getByRole('button', { name: 'Start a conversation' }).click();
    const started = detail.locator('[data-started]');
    await started.waitFor();
    conv = (await started.getAttribute('data-started'))!;
    expect(conv).toMatch(/^conv_/);
    // The page says how a program acting as the agent names it, and lists it at once.
    expect(await started.innerText()).toContain(`stoa mcp --agent ${id} --conversation ${conv}`);
    await page.locator(`[data-conversation="${conv}"]`).waitFor();
    for (const p of ['notes/one.md', 'notes/two.md']) {
      const r = await writeAsAgent(p);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { refused: boolean }).refused).toBe(false);
    }
    await page.reload();
    const item = page.locator(`[data-conversation="${conv}"]`);
    await item.waitFor();
    expect(await item.locator('[data-writes]').innerText()).toContain('2 of 5 changes');
    expect(await page.locator('[data-writes-total]').innerText()).toContain('2');
    await item.getByRole('button').first().click();
    const trace = item.locator('table.trace');
    await trace.waitFor();
    expect(await trace.locator('tbody tr').count()).toBe(2);
    const link = trace.getByRole('link', { name: /notes\/two\.md v1/ });
    await link.waitFor();
    expect(await trace.innerText()).toContain('ws_write_file');
  });

  it('revokes the token after confirmation, and the server refuses it from then on', async () => {
    const detail = page.locator('.agent-detail');
    await detail.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await detail.getByText('revoked').waitFor();
    expect((await writeAsAgent('notes/three.md')).status).toBe(401);
  });
});
