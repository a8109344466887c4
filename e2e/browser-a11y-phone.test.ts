import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';
import { langs, seedTour, tour } from './a11y-tour.js';

// Every page and the dialogs reached from them at 360×740, in each language: axe-core finds nothing, and a page in
// Russian or Chinese shows no English UI word (names people typed aside). One browser; one context per language.
describe.skipIf(!hasChromium)('web UI at 360×740: accessibility and translation of every page', () => {
  let s: UiServer;
  beforeAll(async () => {
    s = await startUiServer();
    await seedTour(s);
  });
  afterAll(async () => s?.close());

  it.each(langs)('has no axe-core violations and no English words in $lang', async ({ lang, locale }) => {
    const { found, english } = await tour(s, locale, { width: 360, height: 740 }, lang);
    expect({ found, english }).toEqual({ found: [], english: [] });
  });
});
