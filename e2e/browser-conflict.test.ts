import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { getMemory, getPage, putPage, setMemory } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Never lose work on a conflict: a refused save shows "Your version" and "Their version (vN by NAME)" side by side,
// each with what it changed (added green "+", removed red "−"), and one Save of the result, which never saves
// conflict markers: each place both changed is settled with yours, theirs or both first.
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
    await conflict
      .getByRole('alert')
      .getByText(/saved version 2 while you were editing version 1/)
      .waitFor();
    // Each side shows what it did: my change to the taxis, their change to the trains, additions as "+".
    const mine = conflict.locator('figure', { hasText: 'Your version' });
    expect(await mine.locator('.added').allInnerTexts()).toEqual(['+ Taxis: at night or with luggage.']);
    expect(await mine.locator('.removed').allInnerTexts()).toEqual(['− Taxis: only at night.']);
    const theirs = conflict.locator('figure', { hasText: /Their version \(v2 by .+\)/ });
    expect(await theirs.locator('.added').allInnerTexts()).toEqual(['+ Trains: first class over 4 hours.']);
    expect(await theirs.locator('.removed').allInnerTexts()).toEqual(['− Trains: second class.']);
    // Added reads green, removed red, in either column.
    const green = await theirs.locator('.added').evaluate((el) => getComputedStyle(el).backgroundColor);
    const red = await theirs.locator('.removed').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(green).toBe('rgb(232, 245, 236)');
    expect(red).not.toBe(green);
    // They changed different lines: the result holds both changes, ready to edit; one Save on the page.
    const merge = conflict.getByRole('textbox', { name: 'Result to save (you can edit it)' });
    expect(await merge.inputValue()).toBe('Trains: first class over 4 hours.\nHotels: up to 120 EUR.\nTaxis: at night or with luggage.');
    expect(await bob.page.getByRole('button', { name: /^Save/ }).count()).toBe(1);
    await merge.fill('Trains: first class over 4 hours.\nHotels: up to 130 EUR.\nTaxis: at night or with luggage.');
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await bob.page.getByText('Hotels: up to 130 EUR.').waitFor();
    await bob.page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor();

    const saved = await getPage(admin, { path: 'handbook/travel' });
    expect(saved.text).toBe('Trains: first class over 4 hours.\nHotels: up to 130 EUR.\nTaxis: at night or with luggage.');
    expect(saved.version).toBe(3);
    await alice.context.close();
    await bob.context.close();
  });

  it('where both changed the same line, Save refuses while the markers remain; "Use yours" settles the place', async () => {
    const admin = await s.t.admin();
    await putPage(admin, { path: 'handbook/leave', title: 'Leave', text: 'Days: 25.' });
    const { context, page } = await s.signedIn();
    const text = await openEditor(page, 'handbook/leave');
    await text.fill('Days: 28.');
    await putPage(admin, { path: 'handbook/leave', text: 'Days: 30.', base: 1 });
    await page.getByRole('button', { name: 'Save page', exact: true }).click();
    const conflict = page.getByRole('region', { name: 'Your changes and theirs' });
    const merge = conflict.getByRole('textbox', { name: 'Result to save (you can edit it)' });
    await merge.waitFor();
    expect(await merge.inputValue()).toMatch(/^<<<<<<< Your version\nDays: 28\.\n=======\nDays: 30\.\n>>>>>>> Their version \(v2 by .+\)$/);
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await conflict.getByRole('alert').getByText('Not saved: 1 place(s) still hold both versions').waitFor();
    expect((await getPage(admin, { path: 'handbook/leave' })).text).toBe('Days: 30.');
    await conflict.getByRole('list', { name: 'Places you both changed: 1' }).getByRole('button', { name: 'Use yours' }).click();
    expect(await merge.inputValue()).toBe('Days: 28.');
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Leave', level: 1 }).waitFor();
    await page.locator('.markdown', { hasText: 'Days: 28.' }).waitFor();
    const saved = await getPage(admin, { path: 'handbook/leave' });
    expect(saved.text).toBe('Days: 28.');
    expect(saved.version).toBe(3);
    await context.close();
  });

  it('a refused memory save offers the same view; saving their text unchanged shows it and forgets mine', async () => {
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
    await conflict.locator('figcaption', { hasText: /^Their version \(v2 by .+\)$/ }).waitFor();
    // The version on the page is the one the conflict names.
    await page.locator('.memory-page').getByText('Version 2', { exact: true }).waitFor();
    await conflict.getByRole('button', { name: 'Use all of theirs' }).click();
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
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
