import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createInvitation } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer, newTestContext } from './browser-helpers.js';
import { startOidcProvider, type TestOidcProvider } from './helpers/oidc-provider.js';

/**
 * Single sign-on through a real OpenID Connect provider (`oidc-provider` on 127.0.0.1) in real Chromium (issue 31):
 * an invitation link links the person's identity to their new account; afterwards the SSO button signs them in;
 * a verified address in an allowed domain gets in without an invitation; anyone else is refused with one note.
 */
describe.skipIf(!hasChromium)('single sign-on in the browser', () => {
  let s: UiServer;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    s = await startUiServer();
    idp = await startOidcProvider(`${s.url}/api/v1/auth/oidc/callback`);
    s.t.platform.config.oidc = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: [], name: 'Example SSO' };
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await idp?.close();
  });

  async function freshPage(): Promise<Page> {
    const context = await newTestContext(s.browser);
    return context.newPage();
  }

  /** The provider's own development sign-in and consent pages. */
  async function atProvider(page: Page, login: string): Promise<void> {
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    const consent = page.locator('button[type="submit"]', { hasText: /continue/i });
    if (await consent.isVisible({ timeout: 5_000 }).catch(() => false)) await consent.click();
  }

  it('an invitation link offers the provider; the person comes back signed in, in the project', async () => {
    const inv = await createInvitation(await s.t.admin(), { role: 'editor', user: 'olga' });
    const page = await freshPage();
    await page.goto(`${s.url}/join?code=${encodeURIComponent(inv.code)}&user=olga`);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await atProvider(page, 'olga-at-idp');
    await page.waitForURL(/\/files$/);
    await page.getByText('olga · Editor').waitFor();
    await page.context().close();
  });

  it('afterwards the sign-in page’s SSO button signs the same person in', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await atProvider(page, 'olga-at-idp');
    await page.waitForURL(/\/files$/);
    await page.getByText('olga · Editor').waitFor();
    await page.context().close();
  });

  it('signing in through the provider returns to the MCP consent page that sent the person there', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/consent?client_id=some-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&response_type=code`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await atProvider(page, 'olga-at-idp');
    await page.waitForURL(/\/consent\?client_id=some-client/);
    await page.context().close();
  });

  it('an identity nobody invited is refused with one plain note; with its domain allowed, it gets an account', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await atProvider(page, 'dora');
    await page.waitForURL(/\/login\?sso=failed$/);
    await page.getByText('Single sign-on did not sign you in.', { exact: false }).waitFor();
    expect(await s.t.platform.db.kysely.selectFrom('users').select('id').where('name', '=', 'dora@example.org').executeTakeFirst()).toBeUndefined();

    s.t.platform.config.oidc = { ...s.t.platform.config.oidc!, allowedDomains: ['example.org'] };
    // Dora is still signed in at the provider, which sends her straight back this time.
    await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
    await page.waitForURL((u) => u.href.startsWith(s.url) && !u.pathname.startsWith('/login'));
    expect(await s.t.platform.db.kysely.selectFrom('users').select('id').where('name', '=', 'dora@example.org').executeTakeFirst()).toBeDefined();
    await page.context().close();
  });
});
