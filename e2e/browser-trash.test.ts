import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteFile, listTrash, putFile, statFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Issue 29: what is deleted waits in the Trash, reached from the Files page; an editor restores it, a viewer only
// sees it, and an admin deletes it forever after a confirmation.
describe.skipIf(!hasChromium)('web UI: the Trash', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const editor = await s.t.userCtx('eddie', 'editor');
    await putFile(editor, { path: 'plans/q3.md', source: '# Q3\n' });
    await putFile(editor, { path: 'plans/q3.md', source: '# Q3, second\n' });
    await putFile(editor, { path: 'old.txt', source: 'old' });
  });
  afterAll(async () => s?.close());

  it('a file deleted on the Files page is in the Trash with who deleted it, and an editor restores it with its versions', async () => {
    const editor = await s.t.userCtx('eddie', 'editor');
    const { context, page } = await s.signedIn({ as: editor });
    await page.goto(`${s.url}/files/plans`);
    await fileRow(page, 'plans/q3.md').getByRole('button', { name: 'Delete q3.md' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('It goes to the trash').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted plans/q3.md').waitFor();
    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(/\/trash$/);
    const row = page.locator('tr[data-trash="plans/q3.md"]');
    await row.waitFor();
    expect(await row.locator('td').nth(0).innerText()).toBe('q3.md');
    expect(await row.locator('td').nth(2).innerText()).toBe('13 B');
    expect(await row.locator('td').nth(3).innerText()).toBe('eddie');
    expect(await row.getByRole('button', { name: 'Delete plans/q3.md forever' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Restore plans/q3.md' }).click();
    await page.getByRole('status').getByText('Restored plans/q3.md').waitFor();
    await page.getByText('The trash is empty.').waitFor();
    expect((await statFile(editor, 'plans/q3.md')).version).toBe(2);
    await context.close();
  });

  it('a viewer sees the Trash but cannot restore; an admin deletes forever only after confirming', async () => {
    const editor = await s.t.userCtx('eddie', 'editor');
    await deleteFile(editor, { path: 'old.txt' });
    const viewer = await s.t.userCtx('vera', 'viewer');
    const seen = await s.signedIn({ as: viewer });
    await seen.page.goto(`${s.url}/trash`);
    const row = seen.page.locator('tr[data-trash="old.txt"]');
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Restore old.txt' }).isDisabled()).toBe(true);
    await seen.context.close();

    const { context, page } = await s.signedIn({ locale: 'ru-RU' });
    await page.goto(`${s.url}/trash`);
    await page.getByRole('heading', { name: 'Корзина' }).waitFor();
    const ru = page.locator('tr[data-trash="old.txt"]');
    await ru.getByRole('button', { name: 'Удалить old.txt навсегда' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Удалить «old.txt» навсегда вместе со всеми версиями?').waitFor();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await ru.waitFor();
    await ru.getByRole('button', { name: 'Удалить old.txt навсегда' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Удалить навсегда' }).click();
    await page.getByText('Корзина пуста.').waitFor();
    expect((await listTrash(await s.t.admin())).items).toEqual([]);
    await context.close();
  });
});
