import { describe, expect, it } from 'vitest';
import { foldWord, normalizeTerm, tokenize } from './tokenize.js';
import { fts5Expression, indexTerms, queryTerms } from './terms.js';
import { DEFAULT_TUNING } from './tuning.js';

const terms = (text: string, opts = {}) => tokenize(text, opts).map((t) => t.term);

describe('tokenize', () => {
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
