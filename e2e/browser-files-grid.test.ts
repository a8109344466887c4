import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '@stoa/core/testing';
import { hasChromium, newTestContext, startUiServer, type UiServer } from './browser-helpers.js';

// Issue 31 item 5: the files page as a grid, as in Nextcloud: pictures by their thumbnail (made on the server),
// other files by their kind's icon; the choice of view is remembered in this browser.
describe.skipIf(!hasChromium)('web UI: the files grid and thumbnails', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    const admin = await s.t.admin();
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#2a7f62' } })
      .jpeg()
      .toBuffer();
    await putFile(admin, { path: 'photos/beach.jpg', source: photo });
    await putFile(admin, { path: 'photos/notes.txt', source: 'sand' });
    await putFile(admin, { path: 'photos/2026/plan.md', source: '# plan' });
  });
  afterAll(async () => s?.close());

  it('shows pictures by a small thumbnail and other files by an icon, and keeps the choice', async () => {
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/photos`);
    const views = page.getByRole('group', { name: 'View' });
    expect(await views.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    await views.getByRole('button', { name: 'Grid' }).click();
    const grid = page.getByRole('list', { name: 'Files as a grid' });
    const photo = grid.locator('li[data-path="photos/beach.jpg"] img');
    await photo.waitFor();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
    expect(await photo.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(171);
    expect(await grid.locator('li[data-path="photos/notes.txt"] svg').count()).toBe(1);
    expect(await grid.locator('li[data-path="photos/notes.txt"] img').count()).toBe(0);
    // A card opens the file's preview; a folder's card opens the folder.
    await grid.getByRole('button', { name: 'notes.txt' }).click();
    await page.locator('pre.preview-text', { hasText: 'sand' }).waitFor();
    await grid.locator('li[data-path="photos/2026"] button').click();
    await page.waitForURL(/\/files\/photos\/2026$/);
    await grid.locator('li[data-path="photos/2026/plan.md"]').waitFor();
    await page.reload();
    await page.getByRole('list', { name: 'Files as a grid' }).waitFor();
    expect(await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  it('a thumbnail is refused without a session', async () => {
    const context = await newTestContext(s.browser);
    const r = await context.request.get(`${s.url}/api/v1/projects/default/files/thumbnail?path=photos/beach.jpg`);
    expect(r.status()).toBe(401);
    expect(r.headers()['content-type']).toMatch(/problem\+json/);
    await context.close();
  });
});
