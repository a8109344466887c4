import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, newTestContext, startUiServer, type UiServer } from './browser-helpers.js';

/** Opens a link in a fresh browser (no session, no storage) and gives back the downloaded bytes, or the page shown. */
async function openAnonymously(browser: Browser, link: string, locale = 'en-US'): Promise<{ bytes: string } | { page: string; status: number | null }> {
  const context = await newTestContext(browser, { acceptDownloads: true, locale });
  try {
    const page = await context.newPage();
    const download = page.waitForEvent('download').then(
      (d) => d,
      () => null,
    );
    const answer = await page.goto(link).catch(() => null);
    if (answer) return { page: await page.locator('main').innerText(), status: answer.status() };
    const d = await download;
    return { bytes: readFileSync((await d!.path())!, 'utf8') };
  } finally {
    await context.close();
  }
}

// Issue 31 item 5: a file shared by an expiring link, as in Nextcloud: made from the file's panel, opened by
// anyone without an account, refused with a clear page once revoked or expired.
describe.skipIf(!hasChromium)('web UI: share links', { shuffle: false }, () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    await putFile(await s.t.admin(), { path: 'reports/q1.csv', source: 'region,total\nnorth,12\n' });
  });
  afterAll(async () => s?.close());

  it('a person makes a link for a day; a stranger downloads the file; revoking it refuses the link', async () => {
    const { context, page } = await s.signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/q1.csv').getByRole('button', { name: 'q1.csv', exact: true }).click();
    await page.getByRole('button', { name: 'Share link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share link for q1.csv' });
    await dialog.getByText('This file has no active share links.').waitFor();
    const expiry = dialog.getByRole('group', { name: 'The link stops working after' });
    expect(await expiry.getByRole('radio').evaluateAll((rs) => rs.map((r) => (r as HTMLInputElement).labels?.[0]?.textContent?.trim()))).toEqual([
      '1 hour',
      '1 day',
      '7 days',
      'A date',
    ]);
    await expiry.getByRole('radio', { name: '7 days' }).check();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const shown = dialog.getByRole('textbox', { name: 'Share link' });
    await shown.waitFor();
    const link = await shown.inputValue();
    expect(link).toMatch(new RegExp(`^${s.url}/api/v1/share-links/[\\w-]{43}$`));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const rows = dialog.locator('.share-links li');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/^By admin, until .+Revoke$/s);

    expect(await openAnonymously(s.browser, link)).toEqual({ bytes: 'region,total\nnorth,12\n' });

    await rows.first().getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByText('This file has no active share links.').waitFor();
    expect(await openAnonymously(s.browser, link)).toEqual({
      status: 401,
      page: expect.stringContaining('This share link was revoked by the people who shared the file.'),
    });
    // Escape closes the dialog and leaves the preview open.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Share link…' }).waitFor();
    await context.close();
  });

  it('a link with a chosen date opens until then; once past, the page says it has expired (in the reader’s language)', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/q1.csv').getByRole('button', { name: 'q1.csv', exact: true }).click();
    await page.getByRole('button', { name: 'Share link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share link for q1.csv' });
    await dialog.getByRole('radio', { name: 'A date' }).check();
    await dialog.getByLabel('Until the end of').fill(await page.evaluate(() => new Date(Date.now() + 3 * 86400e3).toISOString().slice(0, 10)));
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
    await expect.poll(() => dialog.locator('.share-links li').count()).toBe(1);
    expect(await openAnonymously(s.browser, link)).toEqual({ bytes: 'region,total\nnorth,12\n' });
    // Three days on (the row's expiry moved to the past, as the clock would).
    await s.t.platform.db.kysely
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await openAnonymously(s.browser, link, 'ru-RU')).toEqual({ status: 401, page: expect.stringContaining('Срок действия этой ссылки истёк.') });
    expect(await openAnonymously(s.browser, `${s.url}/api/v1/share-links/nothing-here`)).toEqual({
      status: 404,
      page: expect.stringContaining('There is no share link at this address.'),
    });
    await context.close();
  });

  it('a viewer sees the dialog but cannot make or revoke links', async () => {
    const viewer = await s.t.userCtx('vera', 'viewer');
    const { context, page } = await s.signedIn({ as: viewer });
    await page.goto(`${s.url}/files/reports`);
    await fileRow(page, 'reports/q1.csv').getByRole('button', { name: 'q1.csv', exact: true }).click();
    await page.getByRole('button', { name: 'Share link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share link for q1.csv' });
    await dialog.getByText('Only editors and admins can share files by link.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create link' }).count()).toBe(0);
    await context.close();
  });
});
