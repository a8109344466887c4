import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { deleteFile, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

/**
 * A reload draws the first screen from last visit's answers before the server has answered any (warm-cache.ts),
 * then the fresh answers replace them; the kept answers belong to one sign-in. The API is held by a route
 * interception, so "before the API answers" is a fact of the test, not a timing.
 */
describe.skipIf(!hasChromium)('web UI: the first screen from last visit, then the fresh answers', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    await putFile(admin, { path: 'keep.txt', source: 'stays' });
    await putFile(admin, { path: 'gone.txt', source: 'deleted elsewhere' });
  });
  afterAll(async () => s?.close());

  /** Holds every API request until the returned function is called; counts those answered meanwhile (none). */
  async function holdApi(page: Page): Promise<() => Promise<void>> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const handler = async (route: Route) => {
      await held;
      await route.continue().catch(() => undefined);
    };
    await page.route((url) => url.pathname.startsWith('/api/'), handler);
    return async () => {
      release();
      await page.unroute((url) => url.pathname.startsWith('/api/'), handler);
    };
  }

  it('a reload shows the kept rows while the API is held; the fresh answer then drops a file deleted meanwhile, keeping the other rows in place', async () => {
    const admin = await s.t.admin();
    const { context, page } = await s.signedIn();
    // A full load of the Files page (the sign-in reached it without one): its first screen's answers are kept.
    await page.goto(`${s.url}/files`);
    await fileRow(page, 'gone.txt').waitFor();
    await deleteFile(admin, { path: 'gone.txt' });

    const release = await holdApi(page);
    await page.reload();
    await fileRow(page, 'keep.txt').waitFor();
    await fileRow(page, 'gone.txt').waitFor();
    await page.locator('.who').getByText('admin').waitFor();
    // Nothing of the API has answered: the screen is last visit's.
    expect(await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/')).length)).toBe(0);
    await fileRow(page, 'keep.txt').evaluate((el) => ((el as HTMLElement & { mark?: number }).mark = 1));

    await release();
    await fileRow(page, 'gone.txt').waitFor({ state: 'detached' });
    // The row that did not change is the same element: replaced answers, not a redrawn screen.
    expect(await fileRow(page, 'keep.txt').evaluate((el) => (el as HTMLElement & { mark?: number }).mark)).toBe(1);
    await context.close();
  });

  it("signing out clears the kept screen, and another person's sign-in never draws the first one's", async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files`);
    await fileRow(page, 'keep.txt').waitFor();
    await page.reload();
    await fileRow(page, 'keep.txt').waitFor();
    const kept = await page.evaluate(() => localStorage.getItem('stoa.warm'));
    expect(kept).toContain('keep.txt');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('stoa.warm'))).toBeNull();

    // Another person signs in on the same browser; even were the first one's answers still there, they are not read.
    const vera = await s.t.userCtx('vera', 'viewer');
    await page.goto(await s.loginLink(vera.actor.kind === 'user' ? vera.actor.userId : ''));
    await page.waitForURL(/\/files$/);
    await page.getByText('vera · viewer').waitFor();
    await page.evaluate((v) => localStorage.setItem('stoa.warm', v!), kept);
    const release = await holdApi(page);
    await page.reload();
    await page.locator('#root').getByText('Loading').first().waitFor();
    expect(await fileRow(page, 'keep.txt').count()).toBe(0);
    expect(await page.locator('.who').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('stoa.warm'))).toBeNull();
    await release();
    await page.getByText('vera · viewer').waitFor();
    await fileRow(page, 'keep.txt').waitFor();
    await context.close();
  });

  it('a 401 clears the kept screen and leads to the sign-in page, not to a prompt over the kept rows', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files`);
    await fileRow(page, 'keep.txt').waitFor();
    await page.reload();
    await fileRow(page, 'keep.txt').waitFor();
    // The session ends on the server (as when revoked elsewhere): the browser still holds the token and the screen.
    const token = await page.evaluate(() => localStorage.getItem('stoa.token'));
    await page.request.post(`${s.url}/api/v1/auth/logout`, { headers: { Authorization: `Bearer ${token}` } });
    await page.reload();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('stoa.warm'))).toBeNull();
    expect(await fileRow(page, 'keep.txt').count()).toBe(0);
    await context.close();
  });
});
