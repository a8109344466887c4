import { describe, expect, it } from 'vitest';
import { headingBefore, plainSnippet } from './markdown-text.js';

const marked = (r: { text: string; highlights: Array<[number, number]> }) => r.highlights.map(([a, b]) => r.text.slice(a, b));

describe('plainSnippet: a snippet of markdown as a reader sees it (issue 31)', () => {
  it('drops heading, emphasis, code and link marks, and keeps the highlighted words highlighted', () => {
    const src = '## Refunds\n\n**Refunds** take [[handbook/time|five days]], see [the policy](https://x.test/p) and `code`.';
    const at = src.indexOf('Refunds**');
    const five = src.indexOf('five');
    const r = plainSnippet(src, [
      [3, 10],
      [at, at + 7],
      [five, five + 4],
    ]);
    expect(r.text).toBe('Refunds Refunds take five days, see the policy and code.');
    expect(marked(r)).toEqual(['Refunds', 'Refunds', 'five']);
    expect(r.text).not.toMatch(/[*#[\]`]/);
  });

  it('turns wiki links without a label into their target, lists, quotes and tables into words', () => {
    const r = plainSnippet('> quoted [[handbook/refunds]]\n- one\n1. two\n| a | b |\n|---|---|', []);
    expect(r.text).toBe('quoted handbook/refunds one two a b');
    expect(plainSnippet('…the end. ## Refunds take **five** days', []).text).toBe('…the end. Refunds take five days');
    expect(plainSnippet('snake_case stays, _emphasis_ goes', []).text).toBe('snake_case stays, emphasis goes');
  });

  it('moves a highlight that covers marks onto the words alone, and drops one that covered only marks', () => {
    const src = 'a **bold** word';
    const r = plainSnippet(src, [
      [2, 10],
      [2, 4],
    ]);
    expect(r.text).toBe('a bold word');
    expect(marked(r)).toEqual(['bold']);
  });
});

describe('headingBefore: the heading a search hit opens a page at', () => {
  const page = '# Handbook\n\nIntro text.\n\n## Refunds\n\nRefunds take\nfive   days.\n\n## **Returns** policy\n\nReturns go by post.';
  it('finds the heading above the snippet, with the snippet folded and cut by the server', () => {
    expect(headingBefore(page, '…Refunds take five days.')).toBe('Refunds');
    expect(headingBefore(page, 'Returns go by post.')).toBe('Returns policy');
    expect(headingBefore(page, 'Intro text.')).toBe('Handbook');
    expect(headingBefore('no headings here at all', 'headings here')).toBeNull();
    expect(headingBefore(page, 'words that are not in the page')).toBeNull();
    // A snippet that starts in the section before: the match decides.
    const snippet = '…Intro text. ## Refunds Refunds take five days.';
    expect(headingBefore(page, snippet, [[snippet.indexOf('five'), snippet.indexOf('five') + 4]])).toBe('Refunds');
    expect(headingBefore(page, snippet)).toBe('Handbook');
    // A match in a heading is under that heading, named whole.
    const inHeading = '…days. ## Returns policy Returns go by post.';
    expect(headingBefore(page.replace('**Returns**', 'Returns'), inHeading, [[inHeading.indexOf('Returns'), inHeading.indexOf('Returns') + 7]])).toBe(
      'Returns policy',
    );
  });
});
