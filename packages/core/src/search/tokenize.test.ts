import { describe, expect, it } from 'vitest';
import { foldWord, normalizeTerm, tokenize, wordSegments } from './tokenize.js';
import { fts5Expression, indexTerms, queryTerms } from './terms.js';
import { DEFAULT_TUNING } from './tuning.js';

const terms = (text: string, opts = {}) => tokenize(text, opts).map((t) => t.term);

describe('tokenize', () => {
  it('finds the same words in ASCII text as Intl.Segmenter, which it skips there', () => {
    const icu = new Intl.Segmenter('und', { granularity: 'word' });
    const viaIcu = (t: string) => [...icu.segment(t)].filter((s) => s.isWordLike).map((s) => [s.segment, s.index]);
    const ours = (t: string) => [...wordSegments(t)].map((s) => [s.segment, s.index]);
    // Every ASCII character between letters, between digits, alone and beside `_`.
    for (let c = 0; c < 128; c++)
      for (const around of ['a%b', '1%2', '%', 'a%', '%1', '_%_', 'a%1', '1%a']) {
        const t = around.replace('%', String.fromCharCode(c));
        expect([t, ours(t)]).toEqual([t, viaIcu(t)]);
      }
    // Random strings over the characters the rules treat apart (a fixed seed: a failure can be replayed).
    const alphabet = 'aZb09_.:\',;- \t\n\r@$\u0000\u000b\u007f"!?/\\()[]{}#%&*+=<>|~`^';
    let seed = 42;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * alphabet.length;
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      for (let n = 1 + (i % 16); n > 0; n--) t += alphabet[Math.floor(next())];
      expect([t, ours(t)]).toEqual([t, viaIcu(t)]);
    }
    expect(terms("e.g. 1,000 don't a:b x_y 3.14 _ __")).toEqual(['e.g', 'e', 'g', '1,000', 'dont', 'a:b', 'x_y', 'x', 'y', '3.14', '__']);
    // Text with one non-ASCII character goes through the segmenter.
    expect(terms('naïve e.g.')).toEqual(['naiv', 'e.g', 'e', 'g']);
  });

  it('folds case, width and accents, but keeps CJK marks and Cyrillic letters', () => {
    expect(foldWord('Naïve')).toBe('naive');
    expect(foldWord('ＡＢＣ')).toBe('abc');
    expect(foldWord('Ёлка')).toBe('елка');
    expect(foldWord('йод')).toBe('йод');
    expect(foldWord('молоко́')).toBe('молоко');
    expect(foldWord('ガ')).toBe('ガ');
    expect(foldWord('co\u00adoperate')).toBe('cooperate');
    expect(foldWord('नमस्ते')).toBe('नमस्ते');
  });

  it('stems English and Russian, and meets "-tion" with its verb', () => {
    expect(normalizeTerm('connected')).toBe(normalizeTerm('connection'));
    expect(normalizeTerm('connections')).toBe('connect');
    expect(normalizeTerm('adoption')).toBe(normalizeTerm('adopted'));
    expect(normalizeTerm('station')).toBe('station');
    expect(normalizeTerm('книги')).toBe(normalizeTerm('книга'));
    expect(normalizeTerm('Привет')).toBe('привет');
    expect(terms('running dogs', { stem: false })).toEqual(['running', 'dogs']);
  });

  it('keeps offsets into the original text', () => {
    const text = 'Hello, Мир! 数据库';
    for (const t of tokenize(text)) expect(text.slice(t.start, t.end).length).toBeGreaterThan(0);
    const [hello, mir] = tokenize(text);
    expect(text.slice(hello!.start, hello!.end)).toBe('Hello');
    expect(text.slice(mir!.start, mir!.end)).toBe('Мир');
  });

  it('indexes CJK words and character bigrams', () => {
    expect(terms('我们的数据库很快')).toEqual(['我们', '我们', '们的', '的', '的数', '数据', '数据', '据库', '库', '库很', '很快', '很快']);
    expect(terms('数据库', { cjk: 'words' })).toEqual(['数据', '库']);
    expect(terms('数据库', { cjk: 'unigrams+bigrams' })).toEqual(['数', '数据', '据', '据库', '库']);
    expect(terms('库', { cjk: 'bigrams' })).toEqual(['库']);
    expect(terms('東京は日本')).toContain('東京');
  });

  it('indexes the parts of identifiers and file names too', () => {
    expect(terms('report_final.pdf')).toEqual(['report_final.pdf', 'report', 'final', 'pdf']);
    expect(terms("don't children's")).toEqual(['dont', 'children']);
  });

  it('segments long text in pieces with correct offsets', () => {
    const text = `${'alpha beta gamma '.repeat(500)}omega`;
    const toks = tokenize(text);
    expect(toks.length).toBe(1501);
    const last = toks[toks.length - 1]!;
    expect(text.slice(last.start, last.end)).toBe('omega');
    const long = '数'.repeat(2_500);
    expect(tokenize(long, { cjk: 'bigrams' }).length).toBe(2_499);
  });

  it('drops absurdly long words', () => {
    expect(terms(`a${'x'.repeat(200)} ok`)).toEqual(['ok']);
  });
});

describe('terms', () => {
  it('drops stop words from queries unless nothing else remains', () => {
    expect(queryTerms('What is the connection?', DEFAULT_TUNING)).toEqual(['connect']);
    expect(queryTerms('to be or not to be', DEFAULT_TUNING)).toEqual(['to', 'be', 'or', 'not']);
    expect(queryTerms('', DEFAULT_TUNING)).toEqual([]);
    expect(queryTerms('" * ( ) -', DEFAULT_TUNING)).toEqual([]);
  });

  it('quotes FTS5 input', () => {
    expect(fts5Expression(['a"b', 'near'], 'OR')).toBe('"a""b" OR "near"');
  });

  it('stops indexing a body once its terms pass the per-document budget', () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const t = indexTerms('', body, DEFAULT_TUNING);
    expect(t.body.length).toBeGreaterThan(50_000);
    expect(t.body.length).toBeLessThan(100_000);
    expect(new Set(t.body).size).toBeGreaterThan(50_000);
  });
});
