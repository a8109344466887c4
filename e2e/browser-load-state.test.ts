import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Route } from 'playwright-core';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

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
});
