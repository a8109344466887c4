import { tokenize, type Token, type TokenizeOptions } from './tokenize.js';

/** A passage of a document with the matched words marked as [start, end) UTF-16 offsets into `snippet`. */
interface Snippet {
  snippet: string;
  highlights: Array<[number, number]>;
  /** Where in the text the passage's first matched word is (absent when nothing matched). */
  at?: number;
}

/** The start of an ATX heading line of markdown: `## Refunds` (up to three spaces before). */
const HEADING = /^ {0,3}#{1,6}[ \t]/;

/** The text of a heading line without its opening and closing #s. */
function headingText(line: string): string {
  let text = line.trim().replace(/^#+/, '').trim();
  const closing = /[ \t]#+$/.exec(text);
  if (closing) text = text.slice(0, closing.index).trim();
  return text;
}

/**
 * The text of the last markdown heading at or before `at` in `text`, outside fenced code, or undefined: the
 * section a match is in, so a hit can open the page there.
 *
 * @example
 * headingBefore('# Intro\nhello\n## Refunds\nWithin 30 days', 30) // 'Refunds'
 */
export function headingBefore(text: string, at: number): string | undefined {
  let found: string | undefined;
  let fenced = false;
  let pos = 0;
  for (const line of text.slice(0, at).split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const text = HEADING.test(line) ? headingText(line) : '';
      if (text) found = text;
    }
    pos += line.length + 1;
  }
  return pos > 0 ? found : undefined;
}

/** The slow path segments no more than this (≈0.5 µs per character); the fast path reads everything. */
const SCAN_LIMIT_CHARS = 100_000;
/** Enough matches to choose a good window; more only cost time. */
const MAX_MATCHES = 64;
/** How far a cut may move to land on a space instead of inside a word. */
const SNAP_CHARS = 24;

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const CJK_TERM = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}\p{Pc}'’.:]/u;
const LETTER = /[\p{L}\p{N}\p{M}]/u;

/** The scripts whose letters the slow path keeps for the terms written in them; any other script keeps the text. */
const SCRIPTS: ReadonlyArray<{ name: string; test: RegExp }> = [
  { name: 'Latin', test: /\p{Script=Latin}/u },
  { name: 'Cyrillic', test: /\p{Script=Cyrillic}/u },
  { name: 'Greek', test: /\p{Script=Greek}/u },
];
const ANY_LETTER = /\p{L}/u;
/**
 * Characters that segmenting folds (NFKC) into CJK words but that the fast path's exact search does not find:
 * radicals, enclosed and compatibility CJK, compatibility ideographs, half-width katakana and Hangul, Hangul
 * compatibility jamo.
 */
const CJK_COMPAT = /[\u2E80-\u2FDF\u3130-\u318F\u3200-\u33FF\uF900-\uFAFF\uFF65-\uFFDC\u{1F200}-\u{1F2FF}\u{2F800}-\u{2FA1F}]/u;
const outsideCache = new Map<string, RegExp>();
/** Runs of letters written in none of the named scripts. */
function lettersOutside(names: readonly string[]): RegExp {
  const key = names.join(',');
  let re = outsideCache.get(key);
  if (!re) {
    re = new RegExp(`(?:(?!${names.map((n) => `\\p{Script=${n}}`).join('|')})\\p{L})+`, 'gu');
    outsideCache.set(key, re);
  }
  return re;
}

/** Every match by segmenting the whole text (bounded): the slow path, when the fast one cannot be used. */
function scanAll(text: string, wanted: Set<string>, opts: TokenizeOptions): Token[] {
  return tokenize(text.slice(0, SCAN_LIMIT_CHARS), opts)
    .filter((t) => wanted.has(t.term))
    .slice(0, MAX_MATCHES * 4);
}

/**
 * The slow path after the fast one found nothing. CJK terms are found by the fast path as exact substrings, so only
 * the other terms are looked for, and the letters of scripts none of them is written in are blanked out first (same
 * length, so offsets hold): segmenting a 100,000-character Chinese body that matched only in its title took ≈ 115
 * ms, a Russian one ≈ 23 ms, for a Latin word that could not be there. A term with letters of another script keeps
 * the whole text, and so do CJK terms where the text holds compatibility forms of CJK characters.
 */
function scanOthers(text: string, wanted: Set<string>, opts: TokenizeOptions): Token[] {
  const head = text.slice(0, SCAN_LIMIT_CHARS);
  const others = new Set([...wanted].filter((t) => !CJK_TERM.test(t)));
  // A CJK word written in a compatibility form ("ｶﾀｶﾅ", "豈") is found only by segmenting: every term, all the text.
  if (others.size < wanted.size && CJK_COMPAT.test(head)) return scanAll(head, wanted, opts);
  if (others.size === 0) return [];
  const letters = [...others].flatMap((t) => [...t].filter((c) => ANY_LETTER.test(c)));
  const names = SCRIPTS.filter((sc) => letters.some((c) => sc.test.test(c))).map((sc) => sc.name);
  // Digits only, or a letter of a script not listed: the whole text is segmented.
  if (names.length === 0 || !letters.every((c) => SCRIPTS.some((sc) => sc.test.test(c)))) return scanAll(head, others, opts);
  return scanAll(
    head.replace(lettersOutside(names), (run) => ' '.repeat(run.length)),
    others,
    opts,
  );
}

/**
 * The matched tokens of the text, found without segmenting all of it: CJK terms are exact substrings; any
 * other term's stem minus its last letter is a prefix of the (lower-cased) surface word ("connect" of
 * "connection", "книг" of "книги", "happ" of "happy"/"happi"), so only the words at such places are
 * segmented and their terms compared. Where that fails (full-width letters, accents inside the stem) the
 * whole text is segmented instead.
 */
function findMatches(text: string, wanted: Set<string>, opts: TokenizeOptions): Token[] {
  const lower = text.toLowerCase().replace(/ё/g, 'е');
  if (lower.length !== text.length) return scanAll(text, wanted, opts);
  const hits: Array<[number, string | null]> = []; // [position, the CJK term there | null: segment the word]
  for (const term of wanted) {
    const cjkTerm = CJK_TERM.test(term);
    const needle = cjkTerm || term.length <= 2 ? term : term.slice(0, -1);
    for (let at = lower.indexOf(needle), n = 0; at >= 0 && n < MAX_MATCHES * 4; at = lower.indexOf(needle, at + 1), n++) {
      if (cjkTerm) hits.push([at, term]);
      else if (at === 0 || !LETTER.test(lower[at - 1]!)) hits.push([at, null]);
    }
  }
  hits.sort((a, b) => a[0] - b[0]);
  const out: Token[] = [];
  let doneUpTo = -1;
  for (const [at, term] of hits) {
    if (out.length >= MAX_MATCHES) break;
    if (term !== null) {
      out.push({ term, start: at, end: at + term.length });
      continue;
    }
    if (at < doneUpTo) continue;
    let end = at;
    while (end < text.length && WORD_CHAR.test(text[end]!)) end++;
    for (const t of tokenize(text.slice(at, end), opts)) {
      if (wanted.has(t.term)) out.push({ term: t.term, start: t.start + at, end: t.end + at });
    }
    doneUpTo = end;
  }
  if (out.length === 0) return scanOthers(text, wanted, opts);
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The run of matches, at most maxChars long, that covers the most distinct terms (then the most matches). */
function bestWindow(matched: Token[], maxChars: number): [number, number] | undefined {
  let best: [number, number] | undefined;
  let bestScore = -1;
  const counts = new Map<string, number>();
  let r = 0;
  for (let l = 0; l < matched.length; l++) {
    while (r < matched.length && matched[r]!.end - matched[l]!.start <= maxChars) {
      counts.set(matched[r]!.term, (counts.get(matched[r]!.term) ?? 0) + 1);
      r++;
    }
    const score = counts.size * 1_000 + (r - l);
    if (r > l && score > bestScore) {
      bestScore = score;
      best = [matched[l]!.start, matched[r - 1]!.end];
    }
    const lt = matched[l]!.term;
    const c = (counts.get(lt) ?? 1) - 1;
    if (c <= 0) counts.delete(lt);
    else counts.set(lt, c);
    if (r <= l) r = l + 1;
  }
  return best;
}

/**
 * Cuts a passage of at most `maxChars` characters (plus "…" at a cut end) around the densest cluster of query
 * terms, with whitespace collapsed, and returns where the matched words are. Returning ranges instead of
 * inserting markers lets the web UI use <mark>, the CLI «…», and JSON clients whatever they like
 * (see `markHighlights`). `terms` are index terms, as from `queryTerms` (a plain string is tokenised).
 * Without a match in `text` (say, only the title matched) the passage is the start of the text.
 *
 * @example
 * makeSnippet('Refunds are paid within five days of the request.', ['paid'], 30)
 * // { snippet: 'Refunds are paid within five…', highlights: [[12, 16]] }
 */
export function makeSnippet(text: string, terms: string | Iterable<string>, maxChars = 200, opts: TokenizeOptions = {}): Snippet {
  const wanted = new Set(typeof terms === 'string' ? tokenize(terms, opts).map((t) => t.term) : terms);
  const matched = wanted.size > 0 ? findMatches(text, wanted, opts) : [];
  const window = bestWindow(matched, maxChars) ?? [0, 0];
  const spare = Math.max(0, maxChars - (window[1] - window[0]));
  let start = Math.max(0, window[0] - Math.floor(spare / 3));
  // A passage that would begin a few characters into the text begins at its start instead.
  if (start <= SNAP_CHARS && window[1] <= maxChars) start = 0;
  let end = Math.min(text.length, start + maxChars);
  start = Math.max(0, Math.min(start, end - maxChars));
  // Move the cuts onto spaces when one is near and no match is lost; CJK text has none and is cut anywhere.
  if (start > 0 && !isSpace(text[start - 1])) {
    for (let i = start; i < Math.min(window[0], start + SNAP_CHARS); i++)
      if (isSpace(text[i])) {
        start = i + 1;
        break;
      }
  }
  if (end < text.length && !isSpace(text[end])) {
    for (let i = end; i > Math.max(window[1], end - SNAP_CHARS); i--)
      if (isSpace(text[i - 1])) {
        end = i - 1;
        break;
      }
  }
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;

  // Collapse whitespace (markdown line breaks, indentation) and remember where each source offset went.
  let out = start > 0 ? '…' : '';
  const map = new Map<number, number>();
  for (let i = start; i < end; i++) {
    const c = text[i]!;
    if (isSpace(c)) {
      if (out.length > 0 && !out.endsWith(' ') && !out.endsWith('…')) out += ' ';
      map.set(i, out.length);
    } else {
      map.set(i, out.length);
      out += c;
    }
  }
  out = out.trimEnd();
  if (end < text.length) out += '…';

  const highlights: Array<[number, number]> = [];
  for (const m of matched) {
    if (m.start < start || m.end > end) continue;
    const s = map.get(m.start)!;
    const e = map.get(m.end - 1)! + 1;
    const last = highlights[highlights.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else highlights.push([s, e]);
  }
  return { snippet: out, highlights, ...(matched.length > 0 ? { at: window[0] } : {}) };
}

/**
 * Inserts markers around the highlight ranges of a snippet (for plain-text output).
 *
 * @example
 * markHighlights({ snippet: 'paid within', highlights: [[0, 4]] }) // '«paid» within'
 */
export function markHighlights(s: Snippet, open = '«', close = '»'): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.highlights) {
    out += s.snippet.slice(at, a) + open + s.snippet.slice(a, b) + close;
    at = b;
  }
  return out + s.snippet.slice(at);
}
