import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

const DIRECT = 4096; // a server's STOA_DIRECT_UPLOAD_BYTES far below the 25 MB default

// Issue 29, "no traps", in Russian: the UI follows the server's direct-upload threshold, a refusal says the
// API's detail in the UI's words (which segment), and the audit page names every action.
describe.skipIf(!hasChromium)('web UI: no traps — upload threshold, refusals with their detail, audit words', { shuffle: false }, () => {
  let s: UiServer;
  let page: Page;

  beforeAll(async () => {
    s = await startUiServer({ directUploadBytes: DIRECT });
    await putFile(await s.t.admin(), { path: 'notes.txt', source: 'заметки' });
    ({ page } = await s.signedIn({ locale: 'ru-RU' }));
  });
  afterAll(async () => s?.close());

  it("sends a file over the server's STOA_DIRECT_UPLOAD_BYTES straight to storage, and one under it through the server", async () => {
    const limits = (await (await fetch(`${s.url}/api/v1/limits`)).json()) as { directUploadBytes: number };
    expect(limits.directUploadBytes).toBe(DIRECT);
    const starts: string[] = [];
    const puts: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'POST' && /\/uploads$/.test(path)) starts.push(path);
      if (r.method() === 'PUT' && /\/files\/content$/.test(path)) puts.push(path);
    });
    await uploadViaUi(page, [{ name: 'big.bin', body: Buffer.alloc(DIRECT + 1, 0x61) }]);
    await fileRow(page, 'big.bin').waitFor();
    expect(starts).toHaveLength(1);
    expect(puts).toHaveLength(0);
    await uploadViaUi(page, [{ name: 'small.bin', body: Buffer.alloc(DIRECT, 0x62) }]);
    await fileRow(page, 'small.bin').waitFor();
    expect(starts).toHaveLength(1);
    expect(puts).toHaveLength(1);
  });

  it("a refused rename says which segment is not allowed, in the UI's language", async () => {
    await fileRow(page, 'notes.txt').getByRole('button', { name: 'Переименовать notes.txt' }).click();
    await page.getByRole('textbox', { name: 'Переименовать' }).fill('..');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByRole('alert').getByText('Недопустимый путь: сегмент «..» не допускается').waitFor();
    await page.getByRole('button', { name: 'Отмена' }).click();
  });

  it('the audit page names a folder creation in words, not by its code', async () => {
    await page.getByRole('button', { name: 'Новая папка' }).click();
    await page.getByRole('textbox', { name: 'Имя папки' }).fill('отчёты/2026');
    await page.getByRole('button', { name: 'Создать' }).click();
    await page.getByRole('tree').getByRole('treeitem', { name: '2026' }).waitFor();
    await page.getByRole('link', { name: 'Аудит' }).click();
    const row = page.locator('table.audit tbody tr', { hasText: 'отчёты/2026' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Новая папка');
    expect(await page.locator('table.audit').innerText()).not.toContain('folder.create');
    // Every action is offered as a filter by its name.
    const options = await page.getByRole('combobox', { name: 'Действие' }).locator('option').allInnerTexts();
    expect(options).toContain('Новая папка');
    expect(options.every((o) => !/^[a-z]+\.[a-z_]+$/.test(o))).toBe(true);
  });
});
