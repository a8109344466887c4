import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { contextFor, createInvitation, createProject, hashToken, localAdminPrincipal } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer, newTestContext } from './browser-helpers.js';

/**
 * People sign in like people (issue 31): an invitation link leads to a password, the sign-in page takes name and
 * password, a wrong one says only "wrong name or password", "Sign in again" asks for the password, and signing in
 * returns to the MCP consent page that sent the person there. In real Chromium against the real server.
 */
describe.skipIf(!hasChromium)('signing in with a password in the browser', () => {
  let s: UiServer;
  const contexts: BrowserContext[] = [];

  async function freshPage(): Promise<Page> {
    const context = await newTestContext(s.browser);
    contexts.push(context);
    return context.newPage();
  }

  async function signIn(page: Page, user: string, password: string): Promise<void> {
    await page.getByLabel('Name').fill(user);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  beforeAll(async () => {
    s = await startUiServer();
  }, 120_000);
  // Each test's pages close with it: live pages of earlier tests (polling, live updates) would only load the machine.
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('an invitation link leads to a password and straight into the project, without a token in sight', async () => {
    const inv = await createInvitation(await s.t.admin(), { role: 'editor', user: 'iris' });
    const page = await freshPage();
    await page.goto(`${s.url}/join?code=${encodeURIComponent(inv.code)}&user=iris`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('iris');
    await page.getByLabel('New password').fill('iris likes long passwords');
    await page.getByLabel('Repeat the password').fill('iris likes long password');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('Repeat the password').fill('iris likes long passwords');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(/\/files$/);
    await page.getByText('iris · Editor').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/stoa_[A-Za-z0-9_-]{10,}/);

    // The link works once.
    const again = await freshPage();
    await again.goto(`${s.url}/join?code=${encodeURIComponent(inv.code)}&user=iris`);
    await again.getByLabel('New password').fill('someone else tries');
    await again.getByLabel('Repeat the password').fill('someone else tries');
    await again.getByRole('button', { name: 'Create my account' }).click();
    await again.getByText('This invitation link is invalid, used or expired').waitFor();
    expect(again.url()).toContain('/join?');
  });

  it('the sign-in page takes name and password, and a wrong one says only that', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await signIn(page, 'iris', 'not her password at all');
    await page.getByText('Wrong name or password.').waitFor();
    await signIn(page, 'nobody', 'not her password at all');
    await page.getByText('Wrong name or password.').waitFor();
    await signIn(page, 'iris', 'iris likes long passwords');
    await page.waitForURL(/\/files$/);
    await page.getByText('iris · Editor').waitFor();
  });

  it('"Sign in again" asks for the password when the session ends, and keeps the page', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await signIn(page, 'iris', 'iris likes long passwords');
    await page.waitForURL(/\/files$/);
    await page.getByText('iris · Editor').waitFor();
    // The session ends on the server (revoked), then the person does something.
    const token = await page.evaluate(() => localStorage.getItem('stoa.token'));
    await s.t.platform.db.kysely.updateTable('tokens').set({ revoked_at: new Date().toISOString() }).where('token_hash', '=', hashToken(token!)).execute();
    // Dispatched to the link: another request of the page may meet the ended session first and raise the dialog
    // over it (browser-passkeys.test.ts failed so on a busy machine).
    await page.getByRole('link', { name: 'Members' }).dispatchEvent('click');
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('iris');
    await dialog.getByLabel('Password', { exact: true }).fill('iris likes long passwords');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('iris · Editor').waitFor();
  });

  it('signing in with a password returns to the MCP consent page that sent the person there', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/consent?client_id=some-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&response_type=code`);
    await page.waitForURL(/\/login$/);
    await signIn(page, 'iris', 'iris likes long passwords');
    await page.waitForURL(/\/consent\?client_id=some-client/);
  });

  it('an admin invites from the Members page: the link is copied, and the invitee sets a password and is in', async () => {
    const { context, page } = await s.signedIn();
    contexts.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    await page.getByRole('link', { name: 'Members' }).click();
    // A program's token for a member is shown once, with its Copy button.
    await page.locator('tr[data-member="iris"]').getByRole('button', { name: 'New token' }).click();
    const token = await page.locator('code.token').innerText();
    await page.locator('.notice').getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await page.getByRole('button', { name: 'Invite a person…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a person' });
    await dialog.getByLabel('Role').selectOption('viewer');
    await dialog.getByLabel('Their name (optional)').fill('vic');
    await dialog.getByRole('button', { name: 'Create the link' }).click();
    const link = await dialog.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${s.url}/join\\?code=inv_[^&]+&user=vic$`));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const vic = await freshPage();
    await vic.goto(link);
    await vic.getByLabel('New password').fill('vic reads everything');
    await vic.getByLabel('Repeat the password').fill('vic reads everything');
    await vic.getByRole('button', { name: 'Create my account' }).click();
    await vic.waitForURL(/\/files$/);
    await vic.getByText('vic · Viewer').waitFor();
  });

  it('the account page changes the password, asking for the current one', async () => {
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await signIn(page, 'vic', 'vic reads everything');
    await page.waitForURL(/\/files$/);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByText('You sign in with your name and password.').waitFor();
    await page.getByLabel('Current password').fill('not the current one');
    await page.getByLabel('New password').fill('vic has a new password');
    await page.getByLabel('Repeat the password').fill('vic has a new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is wrong.').waitFor();
    await page.getByLabel('Current password').fill('vic reads everything');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password saved.').waitFor();

    const later = await freshPage();
    await later.goto(`${s.url}/login`);
    await signIn(later, 'vic', 'vic has a new password');
    await later.waitForURL(/\/files$/);
  });

  it('opened while signed in, an invitation link joins the signed-in person to the project', async () => {
    const root = await localAdminPrincipal(s.t.platform);
    if (root.kind !== 'user') throw new Error('the local administrator is a user');
    await createProject(s.t.platform, { kind: 'user', userId: root.userId, name: root.name, role: null, superuser: true }, { name: 'second' });
    const inv = await createInvitation(await contextFor(s.t.platform, root, { project: 'second' }), { role: 'viewer' });
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await signIn(page, 'iris', 'iris likes long passwords');
    await page.waitForURL(/\/files$/);
    await page.goto(`${s.url}/join?code=${encodeURIComponent(inv.code)}`);
    await page.getByRole('button', { name: 'Join with my account' }).click();
    await page.waitForURL(/\/files$/);
    const projects = await page.evaluate(async () => {
      const r = await fetch('/api/v1/projects', { headers: { authorization: `Bearer ${localStorage.getItem('stoa.token')}` } });
      return ((await r.json()) as Array<{ name: string }>).map((p) => p.name);
    });
    expect(projects).toContain('second');
  });
});
