import { DEFAULT_CJK_MODE, type CjkMode } from './tokenize.js';

/**
 * The knobs of lexical ranking. Production code uses `DEFAULT_TUNING`; bench/search-quality.ts sweeps the
 * others. Index and search must use the same `cjk`, `stem` and `stopwords` values, or terms will not meet.
 */
export interface SearchTuning {
  /** How CJK runs become terms. */
  cjk: CjkMode;
  /** Stem English and Russian words. */
  stem: boolean;
  /** Query side: drop one-character CJK words that a bigram of the query already covers. */
  cjkQuerySingles: 'keep' | 'drop';
  /** BM25 term-frequency weight of a title occurrence (FTS5 `bm25()` column weight). */
  titleWeight: number;
  /** BM25 term-frequency weight of a body occurrence. Lower than 1 behaves like a smaller k1. */
  bodyWeight: number;
  /** Drop stop words from queries only, from index and queries, or never. */
  stopwords: 'none' | 'query' | 'index';
  /** `and-or`: documents with every query term first, then the rest (OR) by score; `or`: plain BM25 over OR. */
  mode: 'and-or' | 'or';
}

/** The values chosen by the measurements in bench/README.md ("Search"). */
export const DEFAULT_TUNING: Readonly<SearchTuning> = Object.freeze({
  cjk: DEFAULT_CJK_MODE,
  stem: true,
  cjkQuerySingles: 'keep',
  titleWeight: 3,
  bodyWeight: 1,
  stopwords: 'query',
  mode: 'and-or',
});

/** FTS5's bm25() k1 (hard-coded in SQLite); the PostgreSQL formula uses the same. */
export const BM25_K1 = 1.2;
/** FTS5's bm25() b (hard-coded in SQLite); the PostgreSQL formula uses the same. */
export const BM25_B = 0.75;

/** At most this many distinct terms of a query are used (a pasted page must not become a 5,000-way OR). */
export const MAX_QUERY_TERMS = 64;
