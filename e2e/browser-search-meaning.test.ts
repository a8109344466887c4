import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedPending, putPage } from '@stoa/core/testing';
import { startEmbeddingDouble, type EmbeddingDouble } from '../packages/core/src/embeddings/embedding-test-double.js';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// The one search in real Chromium on a server with an embedding model (the embeddings test double).
describe.skipIf(!hasChromium)('web UI: search by meaning', () => {
  let double: EmbeddingDouble;
  let s: UiServer;

  beforeAll(async () => {
    double = await startEmbeddingDouble();
    s = await startUiServer({}, { embeddings: { url: double.url, model: double.model, batchSize: 16, timeoutMs: 5000 } });
    const admin = await s.t.admin();
    await putPage(admin, { path: 'fleet/washing', title: 'Washing', text: 'Every automobile is washed on Fridays.' });
    await putPage(admin, { path: 'fleet/car-keys', title: 'Car keys', text: 'Car keys hang by the door.' });
    await embedPending(s.t.platform);
  });
  afterAll(async () => {
    await s?.close();
    await double?.close();
  });

  it('lists a page that shares no word with the query, and says it was found by meaning', async () => {
    const { page, context } = await s.signedIn();
    await page.getByRole('searchbox', { name: 'Search everything' }).fill('car');
    await page.getByRole('searchbox', { name: 'Search everything' }).press('Enter');
    const washing = page.locator('ul.hits li').filter({ has: page.getByRole('button', { name: 'Washing' }) });
    await washing.waitFor();
    expect(await washing.innerText()).toContain('found by meaning');
    const keys = page.locator('ul.hits li').filter({ has: page.getByRole('button', { name: 'Car keys' }) });
    expect(await keys.innerText()).not.toContain('found by meaning');
    await context.close();
  });
});
