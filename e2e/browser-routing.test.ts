import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '@stoa/core';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// The open folder lives in the URL: a deep link opens it, Back returns to the folder before, a reload stays.
describe.skipIf(!hasChromium)('web UI: folders in the URL', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
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
});
