import { tokenize } from './tokenize.js';
import { MAX_QUERY_TERMS, type SearchTuning } from './tuning.js';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The token streams of one document as both back ends index them. */
export interface IndexTerms {
  title: string[];
  body: string[];
}

/**
 * PostgreSQL refuses a tsvector over 1 MiB and keeps at most 256 positions per lexeme. We stop adding body
 * terms before the estimated tsvector size reaches this budget, and apply the same cut on SQLite so that both
 * back ends hold the same statistics. About 100k distinct terms or far more repeated ones fit.
 */
const TSVECTOR_BUDGET_BYTES = 900_000;
/**
 * Only this much of a body is tokenised (≈2 s of CPU): the tsvector budget above is reached well before in
 * ordinary text, and a huge file must not hold its writer's transaction for minutes.
 */
export const MAX_INDEXED_BODY_CHARS = 4_000_000;
/** Positions kept per lexeme in PostgreSQL (its hard limit). */
export const MAX_POSITIONS = 256;

/**
 * Tokenises a document's title and body into the term streams that are indexed.
 *
 * @example
 * indexTerms('Refunds', 'Refunds take 5 days', DEFAULT_TUNING) // { title: ['refund'], body: ['refund', 'take', '5', 'dai'] }
 */
export function indexTerms(title: string, body: string, tuning: SearchTuning): IndexTerms {
  const keep = (stop: boolean | undefined) => !(stop && tuning.stopwords === 'index');
  const titleTerms = tokenize(title, tuning).filter((t) => keep(t.stop)).map((t) => t.term);
  const bodyTerms: string[] = [];
  const positions = new Map<string, number>();
  let bytes = 0;
  const account = (term: string): boolean => {
    const n = positions.get(term) ?? 0;
    // WordEntry (4) + length-prefixed, aligned lexeme + 2 bytes per position.
    const cost = n === 0 ? Buffer.byteLength(term) + 8 : n < MAX_POSITIONS ? 2 : 0;
    if (bytes + cost > TSVECTOR_BUDGET_BYTES) return false;
    bytes += cost;
    positions.set(term, n + 1);
    return true;
  };
  for (const t of titleTerms) account(t);
  for (const t of tokenize(body.length > MAX_INDEXED_BODY_CHARS ? body.slice(0, MAX_INDEXED_BODY_CHARS) : body, tuning)) {
    if (!keep(t.stop)) continue;
    if (!account(t.term)) break;
    bodyTerms.push(t.term);
  }
  return { title: titleTerms, body: bodyTerms };
}

/**
 * The distinct terms of a user query, stop words dropped unless nothing else remains.
 *
 * @example
 * queryTerms('What is the connection?', DEFAULT_TUNING) // ['connect']
 */
export function queryTerms(query: string, tuning: SearchTuning): string[] {
  let tokens = tokenize(query, tuning);
  if (tuning.cjkQuerySingles === 'drop') {
    // A one-character CJK word inside a longer run ("黑" of "黑豹队") is also inside a bigram ("黑豹"); alone it
    // matches a large share of all CJK text, so it adds cost (an OR over half the corpus) and little rank.
    tokens = tokens.filter((t) => !(t.end - t.start <= 2 && Array.from(t.term).length === 1 && CJK_CHAR.test(t.term) &&
      tokens.some((u) => u !== t && u.start <= t.start && u.end >= t.end && Array.from(u.term).length === 2)));
  }
  const content = tuning.stopwords === 'none' ? tokens : tokens.filter((t) => !t.stop);
  const use = content.length > 0 ? content : tuning.stopwords === 'index' ? [] : tokens;
  return [...new Set(use.map((t) => t.term))].slice(0, MAX_QUERY_TERMS);
}

/**
 * An FTS5 MATCH expression in which every term is a quoted string, so that no user input (`"`, `*`, `AND`,
 * `NEAR`, `(`, `-`, `:`) is ever read as query syntax.
 *
 * @example
 * fts5Expression(['a"b', 'near'], 'OR') // '"a""b" OR "near"'
 */
export function fts5Expression(terms: string[], op: 'AND' | 'OR'): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(` ${op} `);
}

/**
 * One lexeme as a PostgreSQL tsvector/tsquery literal: single-quoted, `'` doubled and `\` escaped, so the
 * cast never applies a parser or dictionary and never fails on odd characters.
 *
 * @example
 * pgLexeme("it's") // "'it''s'"
 */
export function pgLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * A tsquery literal joining the terms with `&` (AND) or `|` (OR).
 *
 * @example
 * pgQuery(['a', 'b'], 'AND') // "'a' & 'b'"
 */
export function pgQuery(terms: string[], op: 'AND' | 'OR'): string {
  return terms.map(pgLexeme).join(op === 'AND' ? ' & ' : ' | ');
}

/**
 * The tsvector literal of a document: each distinct term with one position per occurrence (title ones
 * weighted A, body ones D), capped at 256. Positions carry term frequency, not word order: we never run phrase
 * queries, and building the vector ourselves (instead of `to_tsvector`, whose parser re-splits "e-mail" or
 * "3.14" and collapses positions above 16383) keeps PostgreSQL's statistics identical to FTS5's.
 *
 * @example
 * pgVector({ title: ['refund'], body: ['refund', 'day'] }) // "'refund':1A,2 'day':1"
 */
export function pgVector(terms: IndexTerms): string {
  const counts = new Map<string, [number, number]>();
  for (const t of terms.title) { const c = counts.get(t) ?? [0, 0]; c[0]++; counts.set(t, c); }
  for (const t of terms.body) { const c = counts.get(t) ?? [0, 0]; c[1]++; counts.set(t, c); }
  const parts: string[] = [];
  for (const [term, [a, d]] of counts) {
    const nA = Math.min(a, MAX_POSITIONS);
    const nD = Math.min(d, MAX_POSITIONS - nA);
    const pos: string[] = [];
    for (let i = 1; i <= nA; i++) pos.push(`${i}A`);
    for (let i = nA + 1; i <= nA + nD; i++) pos.push(String(i));
    parts.push(`${pgLexeme(term)}:${pos.join(',')}`);
  }
  return parts.join(' ');
}
