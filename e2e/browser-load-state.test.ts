import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// While a page's data loads it shows placeholders (aria-busy); when loading fails, the error in words and a Retry
// that loads it (components/load-state.tsx). The network failure is the browser's own: the request is held, then
// dropped, once; the Retry reaches the real server.
describe.skipIf(!hasChromium)('web UI: loading placeholders and Retry', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('the audit log shows placeholders, then the failure with Retry, then the (empty) log after Retry', async () => {
    const { context, page } = await s.signedIn();
    await page.getByRole('link', { name: 'Audit' }).waitFor();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname.endsWith('/audit'),
      async (route: Route) => {
        await held;
        await route.abort('connectionrefused');
      },
      { times: 1 },
    );
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.locator('.audit-page [aria-busy="true"]').waitFor();
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await failed.waitFor();
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.audit-page').getByText('Nothing here yet.').waitFor();
    await failed.waitFor({ state: 'detached' });
    await context.close();
  });

  it("a folder shows placeholders while it loads (never the last folder's rows), then the failure with Retry, then its files", async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'home.txt', source: 'at the root' });
    await putFile(admin, { path: 'slow/inside.txt', source: 'in the folder' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files`);
    await fileRow(page, 'home.txt').waitFor();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname.endsWith('/folders') && url.searchParams.get('folder') === 'slow',
      async (route: Route) => {
        await held;
        await route.abort('connectionrefused');
      },
      { times: 1 },
    );
    await page.locator('table.files .folder-row').getByRole('button', { name: 'slow' }).click();
    await page.locator('.files-main [aria-busy="true"]').waitFor();
    expect(await fileRow(page, 'home.txt').count()).toBe(0);
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await failed.getByRole('button', { name: 'Retry' }).click();
    await fileRow(page, 'slow/inside.txt').waitFor();
    await failed.waitFor({ state: 'detached' });
    await context.close();
  });
});
