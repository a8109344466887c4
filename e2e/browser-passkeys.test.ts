import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createInvitation, hashToken } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer, newTestContext } from './browser-helpers.js';

/**
 * Passkeys (issue 31) in real Chromium, with Chrome's own virtual authenticator (CDP `WebAuthn`) standing in for a
 * fingerprint reader: an invitation link registers one, and it signs the person in, again after a session ends,
 * and back to the MCP consent page. WebAuthn refuses IP addresses, so the UI is opened at `localhost`.
 */
describe.skipIf(!hasChromium)('passkeys in the browser', () => {
  let s: UiServer;
  let base: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    s = await startUiServer();
    base = s.url.replace('127.0.0.1', 'localhost');
    s.t.platform.config.publicUrl = base;
    context = await newTestContext(s.browser);
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await s?.close();
  });

  async function signOut(): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
  }

  it('an invitation link registers a passkey instead of a password, and the person is in', async () => {
    const inv = await createInvitation(await s.t.admin(), { role: 'editor', user: 'pia' });
    await page.goto(`${base}/join?code=${encodeURIComponent(inv.code)}&user=pia`);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/files$/);
    await page.getByText('pia · Editor').waitFor();
    const keys = await s.t.platform.db.kysely.selectFrom('user_passkeys').select('user_id').execute();
    expect(keys).toHaveLength(1);
  });

  it('the sign-in page signs in with the passkey, no name typed', async () => {
    await signOut();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/files$/);
    await page.getByText('pia · Editor').waitFor();
  });

  it('"Sign in again" takes the passkey when the session ends', async () => {
    const token = await page.evaluate(() => localStorage.getItem('stoa.token'));
    await s.t.platform.db.kysely.updateTable('tokens').set({ revoked_at: new Date().toISOString() }).where('token_hash', '=', hashToken(token!)).execute();
    // Any request of the page may meet the ended session first (on a busy machine the dialog was up before the
    // click, whose pointer it then took, so the click waited out its timeout): dispatch the click to the link itself.
    await page.getByRole('link', { name: 'Members' }).dispatchEvent('click');
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('pia · Editor').waitFor();
  });

  it('signing in with the passkey returns to the MCP consent page', async () => {
    await signOut();
    await page.goto(`${base}/consent?client_id=some-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&response_type=code`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/consent\?client_id=some-client/);
  });

  it('the account page lists the passkey; once removed, it no longer signs in', async () => {
    await page.goto(`${base}/account`);
    const item = page.locator('li[data-passkey]');
    await item.waitFor();
    await item.getByRole('button', { name: 'Remove' }).click();
    await item.waitFor({ state: 'detached' });
    await signOut();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('This passkey was not accepted.').waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });
});
