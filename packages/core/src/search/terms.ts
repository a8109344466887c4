import { inputMax } from '@stoa/contract';
import { tokenize } from './tokenize.js';
import { MAX_QUERY_TERMS, type SearchTuning } from './tuning.js';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The token streams of one document as both back ends index them. */
export interface IndexTerms {
  title: string[];
  body: string[];
}

/**
 * A budget on what one document adds to the index, counted as a PostgreSQL tsvector would size it (the format
 * of migration 003): body terms stop being added once it is reached, on both back ends alike so that they hold
 * the same statistics. About 100k distinct terms (postings) or far more repeated ones fit.
 */
const TSVECTOR_BUDGET_BYTES = 900_000;
/**
 * Only this much of a body is tokenised (≈2 s of CPU): the tsvector budget above is reached well before in
 * ordinary text, and a huge file must not hold its writer's transaction for minutes.
 */
const MAX_INDEXED_BODY_CHARS = 4_000_000;
/** Occurrences of one term that count against the budget (tsvector's limit of positions per lexeme). */
const MAX_POSITIONS = 256;

/**
 * Tokenises a document's title and body into the term streams that are indexed.
 *
 * @example
 * indexTerms('Refunds', 'Refunds take 5 days', DEFAULT_TUNING) // { title: ['refund'], body: ['refund', 'take', '5', 'dai'] }
 */
export function indexTerms(title: string, body: string, tuning: SearchTuning): IndexTerms {
  const keep = (stop: boolean | undefined) => !(stop && tuning.stopwords === 'index');
  const titleTerms = tokenize(title, tuning)
    .filter((t) => keep(t.stop))
    .map((t) => t.term);
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
  // The doors refuse longer queries; a caller inside the core is cut here, so one query's tokenizing (and the
  // pairwise CJK check below) stays bounded: a multi-megabyte query once held the server for ~20 s (issue 27).
  let tokens = tokenize(query.length > inputMax.query ? query.slice(0, inputMax.query) : query, tuning);
  if (tuning.cjkQuerySingles === 'drop') {
    // A one-character CJK word inside a longer run ("黑" of "黑豹队") is also inside a bigram ("黑豹"); alone it
    // matches a large share of all CJK text, so it adds cost (an OR over half the corpus) and little rank.
    tokens = tokens.filter(
      (t) =>
        !(
          t.end - t.start <= 2 &&
          Array.from(t.term).length === 1 &&
          CJK_CHAR.test(t.term) &&
          tokens.some((u) => u !== t && u.start <= t.start && u.end >= t.end && Array.from(u.term).length === 2)
        ),
    );
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
