import { describe, expect, it } from 'vitest';
import { headingBefore, makeSnippet, markHighlights } from './snippet.js';
import { queryTerms } from './terms.js';
import { DEFAULT_TUNING } from './tuning.js';

const snip = (text: string, query: string, max = 200) => makeSnippet(text, queryTerms(query, DEFAULT_TUNING), max);
const marked = (text: string, query: string, max = 200) => markHighlights(snip(text, query, max));

describe('makeSnippet', () => {
  it('marks the matched words, whatever their form', () => {
    expect(marked('The connection was lost. We reconnected later.', 'connected')).toBe('The «connection» was lost. We reconnected later.');
    expect(marked('Привет, мир! Книги на столе.', 'книга привет')).toBe('«Привет», мир! «Книги» на столе.');
  });

  it('cuts around the densest cluster and says where it cut', () => {
    const text = `${'intro words here. '.repeat(20)}alpha beta ${'middle text. '.repeat(20)}alpha beta gamma ${'tail. '.repeat(30)}`;
    const s = snip(text, 'alpha beta gamma', 80);
    expect(s.snippet.startsWith('…')).toBe(true);
    expect(s.snippet.endsWith('…')).toBe(true);
    expect(s.snippet.length).toBeLessThanOrEqual(82);
    expect(s.highlights.map(([a, b]) => s.snippet.slice(a, b))).toEqual(['alpha', 'beta', 'gamma']);
    expect(s.snippet).not.toMatch(/^…\S*[a-z]\s/); // starts at a word, not in the middle of one
  });

  it('collapses whitespace and keeps the highlight offsets right', () => {
    const s = snip('# Title\n\n   Some   *refund*\n\trules', 'refund');
    expect(s.snippet).toBe('# Title Some *refund* rules');
    expect(markHighlights(s)).toBe('# Title Some *«refund»* rules');
  });

  it('merges overlapping CJK bigrams into one highlight', () => {
    expect(marked('我们的数据库很快', '数据库')).toBe('我们的«数据库»很快');
    expect(marked('東京は日本の首都です。', '首都')).toBe('東京は日本の«首都»です。');
  });

  it('starts at the beginning when only the title matched', () => {
    expect(snip('Nothing relevant in this body text at all.', 'zebra', 20)).toEqual({ snippet: 'Nothing relevant in…', highlights: [] });
    expect(makeSnippet('', ['x'])).toEqual({ snippet: '', highlights: [] });
  });

  it('finds words the fast path cannot (full-width letters, accents)', () => {
    expect(marked('Ｃｏｎｎｅｃｔｉｏｎ lost', 'connection')).toBe('«Ｃｏｎｎｅｃｔｉｏｎ» lost');
    expect(marked('a naïve approach', 'naive')).toBe('a «naïve» approach');
    // Amid Chinese text, which the slow path leaves out for a word that is not Chinese.
    expect(marked('数据库连接Ｃｏｎｎｅｃｔｉｏｎ失败了', 'connection')).toBe('数据库连接«Ｃｏｎｎｅｃｔｉｏｎ»失败了');
    expect(marked('我们的数据库 a naïve 方法', '图书 naive')).toBe('我们的数据库 a «naïve» 方法');
    // Letters of other scripts are left out only for terms of Latin, Cyrillic or Greek: a stress mark, digits.
    expect(marked('Мы читали кни\u0301ги вчера, 数据库', 'книги')).toBe('Мы читали «кни\u0301ги» вчера, 数据库');
    expect(marked('数据库 версия ０.０１ здесь', '0.01')).toBe('数据库 версия «０.０１» здесь');
    expect(marked('Ｃｏｎｎｅｃｔｉｏｎ потеряно', 'connection')).toBe('«Ｃｏｎｎｅｃｔｉｏｎ» потеряно');
  });

  it('finds CJK words written in compatibility forms', () => {
    expect(marked('これはｶﾀｶﾅで書いた文です', 'カタカナ')).toBe('これは«ｶﾀｶﾅ»で書いた文です');
    expect(marked('古い\uF900の字', '\u8C48')).toBe('古い«\uF900»の字');
    expect(marked('部首⼀と⼆', '一')).toBe('部首«⼀»と⼆');
    expect(marked('naïve 한국어ㄱ 古い\uF900の字', 'naive \u8C48')).toBe('«naïve» 한국어ㄱ 古い«\uF900»の字');
  });

  it('looks no further for a Chinese word the text does not hold', () => {
    expect(snip('我们的数据库很大', '图书馆', 40)).toEqual({ snippet: '我们的数据库很大', highlights: [] });
  });

  it('accepts a plain query string and custom markers', () => {
    const s = makeSnippet('paid within five days', 'paid');
    expect(markHighlights(s, '<mark>', '</mark>')).toBe('<mark>paid</mark> within five days');
  });

  it('finds a word after the first two million characters of a document', () => {
    // Beyond what the slow path segments (100,000 characters): the fast path reads the whole text.
    const big = `${'lorem ipsum dolor sit amet '.repeat(80_000)} needle at the end`;
    const s = snip(big, 'needle');
    expect(s.highlights.length).toBe(1);
    expect(markHighlights(s)).toContain('«needle» at the end');
  });
});

describe('headingBefore', () => {
  it('names the section a match is in, skipping fenced code and closing #s', () => {
    const text = '# Intro\nhello\n## Refunds ##\nWithin 30 days\n```\n# not a heading\n```\nrefund again';
    expect(headingBefore(text, text.indexOf('Within'))).toBe('Refunds');
    expect(headingBefore(text, text.indexOf('refund again'))).toBe('Refunds');
    expect(headingBefore(text, text.indexOf('hello'))).toBe('Intro');
    expect(headingBefore('no headings here', 5)).toBeUndefined();
  });
});
