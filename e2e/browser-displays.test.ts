import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, createAgent, createConversation, moveFile, putFile, putPage, readFileBytes } from '@stoa/core/testing';
import { fileRow, hasChromium, newTestContext, startUiServer, type UiServer } from './browser-helpers.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// Issue 31 item 6: what a new user saw at 1280×800 and on a 360×740 phone, fixed.
describe.skipIf(!hasChromium)('web UI: displays a new user reads', () => {
  let s: UiServer;
  let agentId = '';
  let conv = '';
  let own = '';

  beforeAll(async () => {
    s = await startUiServer({ agentWritesPerConversation: 100 });
    const admin = await s.t.admin();
    await putFile(admin, { path: 'docs/Quarterly report with a long name.docx', source: Buffer.alloc(23_456, 1), mime: DOCX });
    await putFile(admin, { path: 'docs/budget.xlsx', source: Buffer.alloc(1234, 1) });
    await putFile(admin, { path: 'docs/notes.txt', source: 'notes' });
    for (const n of [1, 2, 10, 11]) await putPage(admin, { path: `meetings/meeting-${n}`, title: `Meeting ${n}`, text: `Minutes ${n}.` });
    await putPage(admin, {
      path: 'handbook/imported',
      title: 'Imported page',
      text: '# Imported page\n\nSee [[meetings/meeting-2]], [[meetings/meeting-10|the tenth]] and [[handbook/nowhere]].\n\n' + 'Line.\n\n'.repeat(150),
    });
    const a = await createAgent(admin, { name: 'Filer', files: 'on' });
    agentId = a.id;
    own = `agents/${a.id}`;
    conv = (await createConversation(admin, { members: [a.id], kind: 'dialog' })).id;
    await putFile(admin, { path: `${own}/old.md`, source: 'one\n' });
    await putFile(admin, { path: `${own}/old.md`, source: 'two\n' });
    await putFile(admin, { path: `${own}/plan.md`, source: 'plan v1\n' });
    await putFile(admin, { path: `${own}/draft.md`, source: 'draft\n' });
    await putFile(admin, { path: `${own}/other.md`, source: 'other v1\n' });
    const agent = await s.t.agentCtx(a.id, conv);
    for (const [name, args] of [
      ['ws_delete_file', { path: 'old.md' }],
      ['ws_write_file', { path: 'plan.md', content: 'plan by agent\n' }],
      ['ws_write_file', { path: 'other.md', content: 'other by agent\n' }],
      ['move_file', { from_path: 'draft.md', to_path: 'final.md' }],
    ] as const) {
      const r = await callTool(agent, name, args);
      expect(r.refused, r.text).toBe(false);
    }
    // A person moves the agent's file on after the conversation.
    await moveFile(admin, { from: `${own}/final.md`, to: 'shared/final.md' });
  });
  afterAll(async () => s?.close());

  it('at 1280 px the table beside an open preview shows whole sizes and kinds in words, the media type in a tooltip', async () => {
    const context = await newTestContext(s.browser, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(await s.loginLink());
    await page.waitForURL(/\/files$/);
    await page.goto(`${s.url}/files/docs`);
    const row = fileRow(page, 'docs/Quarterly report with a long name.docx');
    await row.locator('button.file-name').click();
    await page.getByRole('complementary', { name: 'Preview' }).locator('.preview-mime').waitFor();
    expect(await row.locator('td.type').innerText()).toBe('Word document');
    expect(await row.locator('td.type').getAttribute('title')).toBe(DOCX);
    expect(await fileRow(page, 'docs/budget.xlsx').locator('td.type').innerText()).toBe('Spreadsheet');
    expect(await page.locator('.preview-type').innerText()).toBe('Word document');
    // Nothing in Size or Type is cut short with an ellipsis.
    const cut = await page.$$eval('table.files tr[data-path] td.num, table.files tr[data-path] td.type', (cells) =>
      cells.filter((c) => (c as HTMLElement).offsetWidth > 0 && c.scrollWidth > c.clientWidth).map((c) => c.textContent),
    );
    expect(cut).toEqual([]);
    expect(await row.locator('td.num').isVisible()).toBe(true);
    await context.close();
  });

  it('orders the wiki tree as people count, shows link titles and marks a missing page, without a repeated title', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/wiki/handbook/imported`);
    await page.locator('.markdown a.wiki-link').first().waitFor();
    expect(await page.locator('.wiki-tree li', { hasText: /^Meeting \d+$/ }).allInnerTexts()).toEqual(['Meeting 1', 'Meeting 2', 'Meeting 10', 'Meeting 11']);
    const links = page.locator('.markdown a.wiki-link');
    await expect.poll(() => links.allInnerTexts()).toEqual(['Meeting 2', 'the tenth', 'handbook/nowhere']);
    expect(await links.nth(2).getAttribute('class')).toContain('missing');
    expect(await links.nth(0).getAttribute('class')).not.toContain('missing');
    // The title is the page's h1, once.
    expect(await page.getByRole('heading', { name: 'Imported page' }).count()).toBe(1);
    await context.close();
  });

  it('on a phone a wiki page opens first, the list of pages behind a button', async () => {
    const context = await newTestContext(s.browser, { viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(await s.loginLink());
    await page.waitForURL(/\/files$/);
    await page.goto(`${s.url}/wiki/handbook/imported`);
    const title = page.getByRole('heading', { name: 'Imported page', level: 1 });
    await title.waitFor();
    expect(await title.evaluate((h) => h.getBoundingClientRect().top)).toBeLessThan(400);
    expect(await page.locator('.wiki-tree').isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: /All pages/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await page.locator('.wiki-tree').getByRole('button', { name: 'Meeting 10' }).click();
    await page.waitForURL(/meeting-10$/);
    await page.getByRole('heading', { name: 'Meeting 10', level: 1 }).waitFor();
    expect(await page.locator('.wiki-tree').isVisible()).toBe(false);
    await context.close();
  });

  it("the agent's review shows a deleted file's last version and a file moved since, and undoes one item", async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/agents/${agentId}`);
    const item = page.locator(`[data-conversation="${conv}"]`);
    await item.getByRole('button', { name: 'Review changes' }).click();
    const deleted = item.locator(`[data-change="file:${own}/old.md"]`);
    await deleted.waitFor();
    expect(await deleted.innerText()).toContain('deleted by the conversation (it was at v2)');
    expect(await deleted.innerText()).not.toContain('did not exist');
    const moved = item.locator('[data-change="file:shared/final.md"]');
    expect(await moved.innerText()).toContain(`moved since to shared/final.md (the conversation left it at ${own}/final.md)`);
    // One item undone with its own button; the others stay as they are.
    await item
      .locator(`[data-change="file:${own}/plan.md"]`)
      .getByRole('button', { name: `Undo the change to ${own}/plan.md` })
      .click();
    await item.locator(`[data-result="file:${own}/plan.md"]`).getByText('restored').waitFor();
    await item.locator(`[data-change="file:${own}/plan.md"][data-status="reverted"]`).waitFor();
    expect(await item.locator(`[data-change="file:${own}/other.md"]`).getAttribute('data-status')).toBe('revertible');
    const admin = await s.t.admin();
    expect((await readFileBytes(admin, `${own}/plan.md`)).bytes.toString()).toBe('plan v1\n');
    expect((await readFileBytes(admin, `${own}/other.md`)).bytes.toString()).toBe('other by agent\n');
    await context.close();
  });
});
