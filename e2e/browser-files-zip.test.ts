import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';
import { unzipInstalled } from '../apps/server/src/http/test-app.js';

/** Clicks a button that downloads, saves what the browser got and lists the zip's entries with Info-ZIP's unzip. */
async function zipEntries(page: Page, click: () => Promise<void>): Promise<{ name: string; entries: string[]; text: (entry: string) => string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const dir = mkdtempSync(join(tmpdir(), 'stoa-ui-zip-'));
  const file = join(dir, 'got.zip');
  await download.saveAs(file);
  const entries = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  const texts = Object.fromEntries(entries.map((e) => [e, execFileSync('unzip', ['-p', file, e]).toString('utf8')]));
  rmSync(dir, { recursive: true, force: true });
  return { name: download.suggestedFilename(), entries, text: (e) => texts[e]! };
}

const hasUnzip = unzipInstalled();

// Files: ticked files, or the open folder, download as one zip (read back by a real unzip).
describe.skipIf(!hasChromium || !hasUnzip)('web UI: zip downloads', () => {
  let s: UiServer;
  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'zips/a.txt', source: 'alpha' });
    await putFile(admin, { path: 'zips/b.txt', source: 'beta' });
    await putFile(admin, { path: 'zips/inner/c.md', source: '# gamma' });
  });
  afterAll(async () => s?.close());

  it('downloads the ticked files as one zip, and the open folder with its subfolders as another', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/zips`);
    await fileRow(page, 'zips/a.txt').waitFor();
    await page.getByRole('checkbox', { name: 'Select a.txt' }).check();
    await page.getByRole('checkbox', { name: 'Select b.txt' }).check();
    const ticked = await zipEntries(page, () => page.getByRole('button', { name: 'Download as zip' }).click());
    expect(ticked.name).toBe('default.zip');
    expect(ticked.entries).toEqual(['a.txt', 'b.txt']);
    expect(ticked.text('b.txt')).toBe('beta');

    const folder = await zipEntries(page, () => page.getByRole('button', { name: 'Download folder (zip)' }).click());
    expect(folder.name).toBe('zips.zip');
    expect(folder.entries).toEqual(['a.txt', 'b.txt', 'inner/c.md']);
    expect(folder.text('inner/c.md')).toBe('# gamma');
    await context.close();
  });
});
