import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { getMemory, getPage, putPage, setMemory } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Never lose work on a conflict: a refused save shows yours and theirs side by side, and the user keeps theirs,
// keeps theirs over it, or saves a merge of both.
describe.skipIf(!hasChromium)('web UI: edit conflicts', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  const openEditor = async (page: Page, path: string) => {
    await page.goto(`${s.url}/wiki/${path}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    return page.getByRole('textbox', { name: 'Text' });
  };

  it('two people edit one wiki page; the second save conflicts, and the merge keeps both changes', async () => {
    const admin = await s.t.admin();
    await putPage(admin, { path: 'handbook/travel', title: 'Travel', text: 'Trains: second class.\nHotels: up to 120 EUR.\nTaxis: only at night.' });
    const alice = await s.signedIn();
    const bob = await s.signedIn();
    const aliceText = await openEditor(alice.page, 'handbook/travel');
    const bobText = await openEditor(bob.page, 'handbook/travel');
    await aliceText.fill('Trains: first class over 4 hours.\nHotels: up to 120 EUR.\nTaxis: only at night.');
    await bobText.fill('Trains: second class.\nHotels: up to 120 EUR.\nTaxis: at night or with luggage.');

    await alice.page.getByRole('button', { name: 'Save page', exact: true }).click();
    await alice.page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor();
    await bob.page.getByRole('button', { name: 'Save page', exact: true }).click();

    const conflict = bob.page.getByRole('region', { name: 'Your changes and theirs' });
    await conflict.getByRole('alert').getByText('Someone saved version 2 since you started editing').waitFor();
    // Side by side: each side marks the lines only it has.
    expect(await conflict.locator('figure', { hasText: 'Yours' }).locator('.added').allInnerTexts()).toEqual([
      '+ Trains: second class.',
      '+ Taxis: at night or with luggage.',
    ]);
    expect(await conflict.locator('figure', { hasText: 'Theirs (version 2)' }).locator('.removed').allInnerTexts()).toEqual([
      '− Trains: first class over 4 hours.',
      '− Taxis: only at night.',
    ]);
    // They changed different lines: the merge holds both changes, ready to edit.
    const merge = conflict.getByRole('textbox', { name: 'Merge (edit before saving)' });
    expect(await merge.inputValue()).toBe('Trains: first class over 4 hours.\nHotels: up to 120 EUR.\nTaxis: at night or with luggage.');
    await merge.fill('Trains: first class over 4 hours.\nHotels: up to 130 EUR.\nTaxis: at night or with luggage.');
    await conflict.getByRole('button', { name: 'Save the merge' }).click();
    await bob.page.getByText('Hotels: up to 130 EUR.').waitFor();
    await bob.page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor();

    const saved = await getPage(admin, { path: 'handbook/travel' });
    expect(saved.text).toBe('Trains: first class over 4 hours.\nHotels: up to 130 EUR.\nTaxis: at night or with luggage.');
    expect(saved.version).toBe(3);
    await alice.context.close();
    await bob.context.close();
  });

  it('where both changed the same line, the merge shows both between markers; "Keep mine" saves mine over theirs', async () => {
    const admin = await s.t.admin();
    await putPage(admin, { path: 'handbook/leave', title: 'Leave', text: 'Days: 25.' });
    const { context, page } = await s.signedIn();
    const text = await openEditor(page, 'handbook/leave');
    await text.fill('Days: 28.');
    await putPage(admin, { path: 'handbook/leave', text: 'Days: 30.', base: 1 });
    await page.getByRole('button', { name: 'Save page', exact: true }).click();
    const conflict = page.getByRole('region', { name: 'Your changes and theirs' });
    const merge = conflict.getByRole('textbox', { name: 'Merge (edit before saving)' });
    await merge.waitFor();
    expect(await merge.inputValue()).toBe('<<<<<<< Yours\nDays: 28.\n=======\nDays: 30.\n>>>>>>> Theirs (version 2)');
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByRole('heading', { name: 'Leave', level: 1 }).waitFor();
    await page.locator('.markdown', { hasText: 'Days: 28.' }).waitFor();
    expect((await getPage(admin, { path: 'handbook/leave' })).text).toBe('Days: 28.');
    await context.close();
  });

  it('a refused memory save offers the same choice; "Keep theirs" shows their text and forgets mine', async () => {
    const admin = await s.t.admin();
    await setMemory(admin, { file: 'AGENTS.md' }, 'Be brief.');
    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/memory`);
    await page
      .getByRole('navigation', { name: 'Memory files' })
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    const textbox = page.getByRole('textbox', { name: 'AGENTS.md' });
    await expect.poll(() => textbox.inputValue()).toBe('Be brief.');
    await textbox.fill('Be brief and kind.');
    await setMemory(admin, { file: 'AGENTS.md' }, 'Be brief. Cite sources.', { base: 1 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('region', { name: 'Your changes and theirs' });
    await conflict.locator('figcaption', { hasText: 'Theirs (version 2)' }).waitFor();
    await conflict.getByRole('button', { name: 'Keep theirs' }).click();
    await conflict.waitFor({ state: 'detached' });
    await expect.poll(() => textbox.inputValue()).toBe('Be brief. Cite sources.');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    // Nothing of mine comes back as a draft.
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Memory files' })
      .getByRole('link', { name: /AGENTS\.md/ })
      .click();
    await expect.poll(() => textbox.inputValue()).toBe('Be brief. Cite sources.');
    expect((await getMemory(admin, { file: 'AGENTS.md' })).version).toBe(2);
    await context.close();
  });

  it('asks before the tab closes while the wiki editor holds unsaved text', async () => {
    const admin = await s.t.admin();
    await putPage(admin, { path: 'handbook/unsaved', title: 'Unsaved', text: 'Old.' });
    const { context, page } = await s.signedIn();
    const text = await openEditor(page, 'handbook/unsaved');
    await text.fill('New, not saved.');
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.type();
      void d.accept();
    });
    await page.reload();
    expect(asked).toBe('beforeunload');
    await context.close();
  });
});
