import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAgent, createToken } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Live updates (B7) on the Wiki and Memory pages: an agent's save over HTTP shows on the open page without a reload;
// someone editing keeps their text and is told that a newer version exists.
describe.skipIf(!hasChromium)('web UI: live wiki and memory', () => {
  let s: UiServer;
  let agentId: string;
  let api: (method: string, path: string, body: object) => Promise<void>;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Scribe' });
    agentId = agent.id;
    const token = (await createToken(admin, { agent: agent.id })).token;
    api = (method, path, body) =>
      fetch(`${s.url}/api/v1/projects/default${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => {
        if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      });
    await api('PUT', '/wiki/page', { path: 'handbook/live', title: 'Live', text: 'First words.' });
    await api('PUT', '/memory/file', { file: 'SOUL.md', agent: agentId, content: 'Be brief.' });
  });
  afterAll(async () => s?.close());

  /** Marks the page, so a reload (which would pass for the wrong reason) is noticed. */
  const mark = (page: Page) => page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  const stillHere = (page: Page) => page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere === true);

  it("the open wiki page shows an agent's save; an editor keeps their text and sees a newer version exists", async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/wiki/handbook/live`);
    await page.locator('.wiki-view').getByText('First words.').waitFor();
    await mark(page);

    await api('PUT', '/wiki/page', { path: 'handbook/live', text: 'Second words, by the agent.' });
    await page.locator('.wiki-view').getByText('Second words, by the agent.').waitFor();
    await api('PUT', '/wiki/page', { path: 'handbook/new-by-agent', title: 'Agent notes', text: 'Hello.' });
    await page.locator('.wiki-tree').getByRole('button', { name: 'Agent notes' }).waitFor();

    await page.locator('.wiki-view').getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Text' });
    await editor.fill('My own words, not saved yet.');
    await api('PUT', '/wiki/page', { path: 'handbook/live', text: 'Third words, by the agent.' });
    await page.getByRole('status').filter({ hasText: 'Someone saved a newer version of this page' }).waitFor();
    expect(await editor.inputValue()).toBe('My own words, not saved yet.');
    expect(await stillHere(page)).toBe(true);
    await context.close();
  });

  it("the open memory file shows an agent's save; an editor keeps their text and sees a newer version exists", async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/memory/SOUL.md/${agentId}`);
    const textbox = page.getByRole('textbox', { name: 'SOUL.md' });
    await expect.poll(() => textbox.inputValue(), { timeout: 15_000 }).toBe('Be brief.');
    await mark(page);

    await api('PUT', '/memory/file', { file: 'SOUL.md', agent: agentId, content: 'Be brief and kind.' });
    await expect.poll(() => textbox.inputValue(), { timeout: 15_000 }).toBe('Be brief and kind.');

    await textbox.fill('My edit, not saved yet.');
    await api('PUT', '/memory/file', { file: 'SOUL.md', agent: agentId, content: 'Be brief, kind and exact.' });
    await page.getByRole('status').filter({ hasText: 'Someone saved a newer version of this file' }).waitFor();
    expect(await textbox.inputValue()).toBe('My edit, not saved yet.');
    // The save then goes through the existing conflict view.
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .getByText(/saved version 3 while you were editing version 2/)
      .waitFor();
    expect(await stillHere(page)).toBe(true);
    await context.close();
  });
});
