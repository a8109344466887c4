import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { createAgent, createConversation, putFile, readFileBytes, callTool } from '@stoa/core/testing';
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

// B11 on an agent's page: "Review changes" shows what one conversation changed with diffs; "Undo this
// conversation" restores them after confirmation and says, item by item, which were refused because someone
// changed them since.
describe.skipIf(!hasChromium)("web UI: undo an agent's conversation", () => {
  let s: UiServer;
  let agentId = '';
  let conv = '';

  beforeAll(async () => {
    s = await startUiServer({ agentWritesPerConversation: 100 });
    const admin = await s.t.admin();
    const a = await createAgent(admin, { name: 'Scribe', files: 'on', write: 'project' });
    agentId = a.id;
    conv = (await createConversation(admin, { members: [a.id], kind: 'dialog' })).id;
    await putFile(admin, { path: 'kept.md', source: 'kept v1\n' });
    await putFile(admin, { path: 'plan.md', source: 'plan v1\n' });
    const agent = await s.t.agentCtx(a.id, conv);
    for (const [name, args] of [
      ['ws_write_file', { path: 'kept.md', content: 'kept by agent\n' }],
      ['ws_write_file', { path: 'plan.md', content: 'plan by agent\n' }],
      ['ws_write_file', { path: 'brand-new-file-with-a-rather-long-name-for-a-phone-screen.md', content: 'new\n' }],
      ['wiki_put', { path: 'handbook/undo', text: 'agent page\n' }],
    ] as const)
      expect((await callTool(agent, name, args)).refused).toBe(false);
    // Someone changes one of them after the agent: undo must leave it alone.
    await putFile(admin, { path: 'kept.md', source: 'kept fixed by admin\n' });
  });
  afterAll(async () => s?.close());

  const openReview = async (page: Page) => {
    await page.goto(`${s.url}/agents/${agentId}`);
    const item = page.locator(`[data-conversation="${conv}"]`);
    await item.getByRole('button', { name: 'Review changes' }).click();
    await item.locator('[data-change="file:plan.md"]').waitFor();
    return item;
  };

  it('reviews the changes with diffs, undoes them after confirmation and refuses the one changed since', async () => {
    const { page } = await s.signedIn();
    const item = await openReview(page);
    expect(await item.locator('[data-change="file:plan.md"] pre.diff').innerText()).toContain('+plan by agent');
    expect(await item.locator('[data-change="wiki:handbook/undo"] pre.diff').innerText()).toContain('+agent page');
    expect(await item.locator('[data-change="file:kept.md"]').innerText()).toContain('Changed since by admin');
    expect(await violations(page)).toEqual([]);

    await item.getByRole('button', { name: 'Undo this conversation' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Restore 3 item(s)').waitFor();
    expect(await violations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Undo this conversation' }).click();
    const results = item.locator('[data-undo-results]');
    await results.waitFor();
    expect(await results.locator('[data-result="file:kept.md"]').innerText()).toBe('kept.md: refused — someone changed it since; their work is kept.');
    expect(await results.locator('[data-result="file:plan.md"]').innerText()).toBe('plan.md: restored to its state before the conversation.');
    expect(await results.locator('[data-result="wiki:handbook/undo"]').innerText()).toContain('restored');
    expect(await violations(page)).toEqual([]);
    const admin = await s.t.admin();
    expect((await readFileBytes(admin, 'plan.md')).bytes.toString()).toBe('plan v1\n');
    expect((await readFileBytes(admin, 'kept.md')).bytes.toString()).toBe('kept fixed by admin\n');
    // The review, loaded again, says so.
    await item.locator('[data-change="file:plan.md"][data-status="reverted"]').waitFor();
  });

  it('fits a 360 px phone screen', async () => {
    const { page } = await s.signedIn();
    await page.setViewportSize({ width: 360, height: 740 });
    await openReview(page);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await violations(page)).toEqual([]);
  });

  it('the conversations and the review show placeholders while they load, then the failure with Retry', async () => {
    const { page } = await s.signedIn();
    const failOnce = async (match: (url: URL) => boolean) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(
        match,
        async (route: Route) => {
          await held;
          await route.abort('connectionrefused');
        },
        { times: 1 },
      );
      return release;
    };
    const failed = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    let release = await failOnce((url) => url.pathname.endsWith('/conversations') && url.searchParams.get('agent') === agentId);
    await page.goto(`${s.url}/agents/${agentId}`);
    await page.locator('.agent-conversations [aria-busy="true"]').waitFor();
    release();
    await failed.getByRole('button', { name: 'Retry' }).click();
    const item = page.locator(`[data-conversation="${conv}"]`);
    await item.waitFor();
    await failed.waitFor({ state: 'detached' });

    release = await failOnce((url) => url.pathname.endsWith(`/conversations/${conv}/changes`));
    await item.getByRole('button', { name: 'Review changes' }).click();
    await item.locator('.conversation-undo [aria-busy="true"]').waitFor();
    release();
    await failed.getByRole('button', { name: 'Retry' }).click();
    await item.locator('[data-change="file:plan.md"]').waitFor();
    await failed.waitFor({ state: 'detached' });
  });
});
