import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile, putPage, readFileBytes } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// Issue 31, item 2: what a new user met in the web UI and did not expect. Each test is one of those surprises,
// gone.
describe.skipIf(!hasChromium)('web UI: no surprises', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  /** A signed-in tab whose first visit installed the service worker, which has taken the page over (clients.claim) once it kept the shell. */
  async function underTheWorker() {
    const { context, page } = await s.signedIn({ serviceWorkers: 'allow' });
    await page.getByRole('tree').getByText('Project files').waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    return { context, page };
  }

  it('a keystroke is in the draft before its handler returns, and comes back after the tab is closed', async () => {
    const admin = await s.t.admin();
    await putPage(admin, { path: 'handbook/drafts', title: 'Drafts', text: 'Old.' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/wiki/handbook/drafts`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const text = page.getByRole('textbox', { name: 'Text' });
    await text.waitFor();
    // One input event, and storage read in the same task: nothing debounced or deferred can have run in between.
    const stored = await text.evaluate((el: HTMLTextAreaElement) => {
      el.value = 'Old. And the last words typed.';
      el.dispatchEvent(new Event('input', { bubbles: true }));
      return Object.entries(localStorage).find(([k]) => k.startsWith('stoa.draft.wiki:'))?.[1] ?? null;
    });
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ text: 'Old. And the last words typed.', base: 1 });
    await page.close({ runBeforeUnload: false });
    const again = await context.newPage();
    await again.goto(`${s.url}/wiki/handbook/drafts`);
    await again.getByRole('button', { name: 'Edit', exact: true }).click();
    await again.getByRole('status').getByText('Your unsaved changes from').waitFor();
    expect(await again.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('Old. And the last words typed.');
    await context.close();
  });

  it('an upload over a taken name asks: keep both, skip (for all the rest), replace; never overwrites unasked', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'inbox/old.txt', source: 'old' });
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/inbox`);
    await fileRow(page, 'inbox/old.txt').waitFor();
    // Made after the page listed the folder (an agent at work): the page does not know, the server's check does.
    await putFile(admin, { path: 'inbox/report.txt', source: 'the agent wrote this' });
    await putFile(admin, { path: 'inbox/plan.txt', source: 'agent plan' });
    await putFile(admin, { path: 'inbox/todo.txt', source: 'agent todo' });
    const ask = page.getByRole('dialog', { name: 'This name is taken' });
    await uploadViaUi(page, [
      { name: 'report.txt', body: 'mine' },
      { name: 'fresh.txt', body: 'new' },
    ]);
    await ask.getByText('"report.txt" already exists in inbox (version 1)').waitFor();
    await ask.getByRole('button', { name: 'Keep both' }).click();
    await fileRow(page, 'inbox/report (1).txt').waitFor();
    // Two taken names in one upload: one answer for all of them.
    await uploadViaUi(page, [
      { name: 'plan.txt', body: 'my plan' },
      { name: 'todo.txt', body: 'my todo' },
    ]);
    await ask.getByText(/"(plan|todo)\.txt" already exists/).waitFor();
    await ask.getByRole('checkbox', { name: 'Do this for all remaining conflicts in this upload' }).check();
    await ask.getByRole('button', { name: 'Skip' }).click();
    await ask.waitFor({ state: 'detached' });
    const queue = page.getByRole('region', { name: 'Uploads' });
    await queue.locator('[data-name="plan.txt"][data-state="skipped"]').waitFor();
    await queue.locator('[data-name="todo.txt"][data-state="skipped"]').waitFor();
    expect(await queue.locator('[data-name="plan.txt"] .upload-state').innerText()).toBe('Skipped (the name is taken)');
    await fileRow(page, 'inbox/report (1).txt').waitFor();
    expect((await readFileBytes(admin, 'inbox/report.txt')).bytes.toString()).toBe('the agent wrote this');
    expect((await readFileBytes(admin, 'inbox/report (1).txt')).bytes.toString()).toBe('mine');
    expect((await readFileBytes(admin, 'inbox/fresh.txt')).bytes.toString()).toBe('new');
    expect((await readFileBytes(admin, 'inbox/plan.txt')).bytes.toString()).toBe('agent plan');

    // The answer for all was for that upload only: the next one asks again. Keep both again takes the next free name.
    await uploadViaUi(page, [{ name: 'report.txt', body: 'mine again' }]);
    await ask.getByRole('button', { name: 'Keep both' }).click();
    await fileRow(page, 'inbox/report (2).txt').waitFor();
    await uploadViaUi(page, [{ name: 'report.txt', body: 'replaced' }]);
    await ask.getByRole('button', { name: 'Replace (new version)' }).click();
    await expect.poll(async () => (await readFileBytes(admin, 'inbox/report.txt')).bytes.toString()).toBe('replaced');
    expect((await readFileBytes(admin, 'inbox/report.txt')).info.version).toBe(2);
    await context.close();
  });

  it('a reload while offline shows the shell, "You are offline" and Retry, which loads the page once the network is back', async () => {
    const { context, page } = await underTheWorker();
    // Under the worker, uploads and the API go to the network as before.
    await uploadViaUi(page, [{ name: 'under-the-worker.txt', body: 'sent' }]);
    await fileRow(page, 'under-the-worker.txt').waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.locator('header.topbar .brand').waitFor();
    const notice = page.getByRole('alert').filter({ hasText: 'You are offline.' });
    await notice.waitFor();
    // Retry while still offline: the notice stays, nothing breaks.
    await notice.getByRole('button', { name: 'Retry' }).click();
    await notice.waitFor();
    // The API was never kept: no answer of a project's data comes from the service worker's cache.
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    expect(kept).toContain('/');
    expect(kept.filter((u) => u.startsWith('/api/') || u.startsWith('/dav'))).toEqual([]);
    await context.setOffline(false);
    // Back online, the page loads by itself (the browser's "online" event) or by Retry.
    await notice
      .getByRole('button', { name: 'Retry' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await page.getByRole('tree').getByText('Project files').waitFor();
    await notice.waitFor({ state: 'detached' });
    await context.close();
  });

  it("still loads once the browser has dropped the service worker's kept assets: they come from the network", async () => {
    const { context, page } = await underTheWorker();
    // As a browser short of storage may do: every kept script and style gone from the worker's cache.
    const dropped = await page.evaluate(async () => {
      let n = 0;
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const r of await cache.keys()) if (new URL(r.url).pathname.startsWith('/assets/') && (await cache.delete(r))) n++;
      }
      return n;
    });
    expect(dropped).toBeGreaterThan(0);
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.reload();
    await page.getByRole('tree').getByText('Project files').waitFor();
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    expect(failed).toEqual([]);
    await context.close();
  });
});
