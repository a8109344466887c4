import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLocks, lockPath, putFile } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Issue 26: a forgotten WebDAV lock is seen by every member and released by an admin with one button.
describe.skipIf(!hasChromium)('web UI: locks on the members page, and logging out', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const editor = await s.t.userCtx('eddie', 'editor');
    await putFile(editor, { path: 'plans/q3.md', source: '# Q3\n' });
    await lockPath(editor, { path: 'plans/q3.md', scope: 'exclusive', depth: '0', owner: 'LibreOffice', timeoutSeconds: Number.POSITIVE_INFINITY });
  });
  afterAll(async () => s?.close());

  it('a viewer sees who holds the lock but cannot release it', async () => {
    const viewer = await s.t.userCtx('vera', 'viewer');
    const { context, page } = await s.signedIn({ as: viewer });
    await page.getByRole('link', { name: 'Members' }).click();
    const row = page.locator('tr[data-lock="plans/q3.md"]');
    await row.waitFor();
    expect(await row.locator('td').nth(1).innerText()).toBe('eddie');
    expect(await row.getByRole('button', { name: 'Release the lock on plans/q3.md' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('an admin releases it, and the file is free again', async () => {
    const { context, page } = await s.signedIn();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Release the lock on plans/q3.md' }).click();
    await page.getByText('No file is locked.').waitFor();
    expect(await listLocks(await s.t.admin())).toEqual([]);
    await context.close();
  });

  it('logging out ends the session on the server, not only in this browser', async () => {
    const { context, page } = await s.signedIn();
    const token = await page.evaluate(() => localStorage.getItem('stoa.token'));
    const files = () => fetch(`${s.url}/api/v1/projects/default/files`, { headers: { authorization: `Bearer ${token}` } });
    expect((await files()).status).toBe(200);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    expect((await files()).status).toBe(401);
    await context.close();
  });
});
