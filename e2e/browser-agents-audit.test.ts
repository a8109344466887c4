import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { putFile, callTool } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// 1×1 PNG and a one-page PDF, to see the image and PDF previews.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const DIRECT = 26214400; // STOA_DIRECT_UPLOAD_BYTES default: larger uploads go straight to storage

// Previews of media, direct uploads, unmapped agent writes, agents, audit and the one search (real Chromium).
// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe.skipIf(!hasChromium)('web UI: media, direct uploads, agents, audit, search', { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;

  beforeAll(async () => {
    s = await startUiServer();
    ({ page } = await s.signedIn());
  });
  afterAll(async () => s?.close());

  it('previews images and PDFs from blob: URLs fetched with the token; other types offer Download', async () => {
    await uploadViaUi(page, [
      { name: 'dot.png', body: PNG },
      { name: 'doc.pdf', body: PDF },
      { name: 'data.zip', body: 'PK\u0003\u0004' },
    ]);
    await fileRow(page, 'dot.png').getByRole('button', { name: 'dot.png', exact: true }).click();
    const img = page.locator('.preview-body img.preview-image');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    await page.waitForFunction(() => (document.querySelector('.preview-body img') as HTMLImageElement | null)?.naturalWidth === 1);
    await fileRow(page, 'doc.pdf').getByRole('button', { name: 'doc.pdf', exact: true }).click();
    expect(await page.locator('.preview-body iframe.preview-pdf').getAttribute('src')).toMatch(/^blob:/);
    await fileRow(page, 'data.zip').getByRole('button', { name: 'data.zip', exact: true }).click();
    await page.getByText('No preview for this type of file.').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.no-preview').getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('data.zip');
  });

  it('sends a file over 25 MB straight to storage, and replacing it makes a new version (F8 as amended)', async () => {
    // A file on disk, not a buffer: Chromium reads it itself instead of receiving 25 MB over the protocol.
    const dir = mkdtempSync(join(tmpdir(), 'stoa-big-'));
    const big = join(dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(DIRECT + 1, 0x61));
    const input = page.locator('[data-testid=upload-input]');
    const starts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/uploads$/.test(new URL(r.url()).pathname)) starts.push(r.url());
    });
    await input.setInputFiles(big);
    await page.getByText('Uploaded 1 file(s)').waitFor({ timeout: 30_000 });
    expect(starts).toHaveLength(1);
    expect(await fileRow(page, 'big.bin').locator('td.num').getAttribute('title')).toBe(`${DIRECT + 1} B`);
    writeFileSync(big, Buffer.alloc(DIRECT + 2, 0x62));
    await input.setInputFiles(big);
    // The name is taken: asked first (the direct upload carries the version it replaces).
    await page.getByRole('dialog', { name: 'This name is taken' }).getByRole('button', { name: 'Replace (new version)' }).click();
    await fileRow(page, 'big.bin')
      .locator(`td.num[title="${DIRECT + 2} B"]`)
      .waitFor({ timeout: 30_000 });
    rmSync(dir, { recursive: true, force: true });
    // One refused start (the name was taken), then the one that replaces version 1.
    expect(starts).toHaveLength(3);
  });

  it('shows "agent" without a name for an unmapped runtime write, with process, node and dialog IDs as tooltip', async () => {
    const admin = await s.t.admin();
    const r = await callTool(
      admin,
      'ws_write_file',
      { path: 'runtime/out.md', content: 'from a process' },
      { runtime: { processId: 'proc_42', nodeId: 'node_7' } },
    );
    expect(r.refused).toBe(false);
    await page.reload();
    await page.getByRole('tree').getByRole('treeitem', { name: 'runtime' }).click();
    const tag = fileRow(page, 'runtime/out.md').locator('.tag.agent');
    expect(await tag.innerText()).toBe('agent');
    expect(await tag.getAttribute('title')).toBe('Process: proc_42 · Node: node_7 · Dialog: —');
  });

  it('creates an agent with file access and changes where it reads', async () => {
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Writer');
    await page.locator('.agent-form').getByRole('combobox', { name: 'File access' }).selectOption('on');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const row = page.locator('tr[data-agent]', { hasText: 'Writer' });
    await row.waitFor();
    const id = await row.getAttribute('data-agent');
    expect(id).toMatch(/^agt_[A-Za-z0-9]{8}$/);
    expect(await row.getByText(`agents/${id}/`).count()).toBe(1);
    await Promise.all([
      page.waitForResponse((res) => res.request().method() === 'PATCH' && res.ok()),
      row.getByRole('combobox', { name: 'What the agent reads' }).selectOption('own'),
    ]);
    await page.reload();
    expect(await page.locator(`tr[data-agent="${id}"]`).getByRole('combobox', { name: 'What the agent reads' }).inputValue()).toBe('own');
    expect(await page.locator(`tr[data-agent="${id}"]`).getByRole('combobox', { name: 'File access' }).inputValue()).toBe('on');
  });

  it('renames an agent and changes its instructions, publishes it, and deletes it after confirmation (its folder stays)', async () => {
    const row = page.locator('tr[data-agent]', { hasText: 'Writer' });
    const id = (await row.getAttribute('data-agent'))!;
    const mine = page.locator(`tr[data-agent="${id}"]`);
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByRole('textbox', { name: 'Name' }).fill('Editor bot');
    await mine.getByRole('textbox', { name: 'Instructions' }).fill('Write short, plain summaries.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await mine.getByText('Editor bot').waitFor();
    await mine.getByText('Write short, plain summaries.').waitFor();
    // Renaming keeps the agent and its folder.
    expect(await mine.getByText(`agents/${id}/`).count()).toBe(1);
    expect(await mine.locator('td').nth(4).innerText()).toBe('—');
    await mine.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => mine.locator('td').nth(4).innerText()).not.toBe('—');
    await mine.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain(`agents/${id}/`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await mine.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    expect(await page.locator(`tr[data-agent="${id}"]`).count()).toBe(0);
  });

  it("lists people's uploads and deletes in the audit log (admins)", async () => {
    await page.getByRole('link', { name: 'Files' }).click();
    await fileRow(page, 'data.zip').getByRole('button', { name: 'Delete data.zip' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted data.zip').waitFor();
    await page.getByRole('link', { name: 'Audit' }).click();
    const upload = page.locator('table.audit tr', { hasText: 'dot.png' });
    await upload.first().waitFor();
    expect(await upload.first().innerText()).toContain('Upload');
    const rows = await page.locator('table.audit tr', { hasText: 'data.zip' }).allInnerTexts();
    expect(rows[0]).toContain('Delete');
    expect(rows.some((r) => r.includes('Upload'))).toBe(true);

    // Filters go into the URL, so a reload and Back keep them.
    await page.getByRole('combobox', { name: 'Action' }).selectOption('file.delete');
    await page.waitForURL(/\/audit\?action=file\.delete$/);
    await expect.poll(() => page.locator('table.audit tbody tr').allInnerTexts()).toEqual([expect.stringContaining('data.zip')]);
    await page.getByRole('textbox', { name: 'File' }).fill('dot.png');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=file\.delete&path=dot\.png$/);
    await page.getByText('Nothing here yet.').waitFor();
    await page.reload();
    await page.getByText('Nothing here yet.').waitFor();
    expect(await page.getByRole('textbox', { name: 'File' }).inputValue()).toBe('dot.png');
    await page.goBack();
    await expect.poll(() => page.locator('table.audit tbody tr').allInnerTexts()).toEqual([expect.stringContaining('data.zip')]);
    expect(await page.getByRole('combobox', { name: 'Action' }).inputValue()).toBe('file.delete');
  });

  it('searches file contents, wiki and memory from the top bar', async () => {
    await putFile(await s.t.admin(), { path: 'policies/refunds.md', source: 'Refunds are paid within five days of the request.' });
    await page.getByRole('searchbox', { name: 'Search everything' }).fill('refunds');
    await page.getByRole('searchbox', { name: 'Search everything' }).press('Enter');
    await page.waitForURL(/\/search\?q=refunds$/);
    const hit = page.locator('.hits li', { hasText: 'policies/refunds.md' });
    await hit.waitFor();
    expect(await hit.locator('mark').first().innerText()).toMatch(/refunds/i);
    await hit.getByRole('button').click();
    await page.locator('.preview-path', { hasText: 'policies/refunds.md' }).waitFor();
  });

  it('opens a big folder at once and draws the rows near the screen as you scroll', async () => {
    const admin = await s.t.admin();
    for (let i = 0; i < 260; i++) await putFile(admin, { path: `bulk/f${String(i).padStart(3, '0')}.txt`, source: 'x' });
    await page.goto(`${s.url}/files`);
    await page.getByRole('tree').getByRole('treeitem', { name: 'bulk' }).click();
    await fileRow(page, 'bulk/f000.txt').waitFor();
    expect(await page.locator('table.files tbody tr[data-path]').count()).toBeLessThan(260);
    // The table is virtualised: scrolling to the end draws the last files, and still not all of them at once. The
    // listing arrives a page at a time, and a page that lands after a scroll lengthens the table under it, so the
    // test scrolls to the end again until the last file is there, as a person would.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          return fileRow(page, 'bulk/f259.txt').count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(await page.locator('table.files tbody tr[data-path]').count()).toBeLessThan(260);
    expect(await fileRow(page, 'bulk/f000.txt').count()).toBe(0);
  });
});
