import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import { STOPWORDS } from './stopwords.js';

/** One indexed term with the span of the original text it came from (UTF-16 offsets, `end` exclusive). */
export interface Token {
  term: string;
  start: number;
  end: number;
  /** The folded word is on the stop list (the term is still emitted; the caller decides). */
  stop?: true;
}

/**
 * How Chinese, Japanese and Korean runs are indexed. `words` = the segmenter's dictionary words only;
 * `bigrams` = overlapping character pairs; `unigrams` = single characters. Chosen by bench/search-quality.ts.
 */
export type CjkMode = 'words' | 'bigrams' | 'words+bigrams' | 'unigrams+bigrams' | 'words+unigrams+bigrams';

/** The default CJK mode (see bench/README.md ("Search") for the measurements behind it). */
export const DEFAULT_CJK_MODE: CjkMode = 'words+bigrams';

/** Options of `tokenize`; index and query must be tokenised alike. */
export interface TokenizeOptions {
  /** Default `DEFAULT_CJK_MODE`. */
  cjk?: CjkMode;
  /** Stem English and Russian words (default true; false exists to measure what stemming is worth). */
  stem?: boolean;
}

// The segmenter is locale-independent for word breaks (ICU uses one dictionary for Chinese and Japanese), so
// one instance serves every language; creating it per call costs more than the segmenting itself.
const SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]+/gu;
const LATIN_WORD = /^\p{Script=Latin}+$/u;
const CYRILLIC_WORD = /^\p{Script=Cyrillic}+$/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const SIMPLE_WORD = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Nd}]+$/u;
// Marks may be stripped only where they are accents on a base letter; in Indic, Thai or Arabic script they are
// vowels and the word would change.
const MARKS_SAFE = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Common}\p{Script=Inherited}]+$/u;
const MARKS = /\p{M}+/gu;
const INVISIBLE = /[\p{Cc}\p{Cf}]+/gu;
// Identifiers and file names ("foo_bar", "report.final") are one segmenter word; their parts are indexed too.
const PART_SEPARATOR = /[._]+/;

/** Longer "words" (hashes are 64, base64 blobs are longer) are dropped: nobody types them and they bloat the index. */
const MAX_TERM_LENGTH = 100;

/**
 * Case-folds one word: NFKC (full-width → ASCII, half-width kana → full), lower case, no invisible characters,
 * accents stripped for Latin and Greek, stress marks stripped and ё → е for Cyrillic; CJK untouched (dakuten
 * are marks there).
 *
 * @example
 * foldWord('Naïve') // 'naive'
 * foldWord('Ёлка')  // 'елка'
 */
export function foldWord(word: string): string {
  let w = word.normalize('NFKC').toLowerCase().replace(INVISIBLE, '');
  if (CJK.test(w)) return w;
  if (CYRILLIC.test(w)) {
    w = w
      .normalize('NFD')
      .replace(/[\u0300\u0301]/g, '')
      .normalize('NFC')
      .replace(/ё/g, 'е');
  } else if (MARKS_SAFE.test(w)) {
    w = w.normalize('NFD').replace(MARKS, '').normalize('NFC');
  }
  if (LATIN_WORD.test(w.replace(/['’]/g, ''))) w = w.replace(/['’]s$/, '').replace(/['’]/g, '');
  return w;
}

/** Matches the Porter step-4 "(s|t)ion" rule (m > 1 before the suffix, counting the s/t). */
const PORTER_M_GT_1 = /^([^aeiou][^aeiouy]*)?[aeiouy][aeiou]*[^aeiou][^aeiouy]*[aeiouy][aeiou]*[^aeiou][^aeiouy]*/;

/**
 * English Porter stem via @orama/stemmers, with one correction: its step 4 drops the "s"/"t" of "-sion"/"-tion"
 * ("connection" → "connec" while "connected" → "connect"), so the two forms never met. We put it back.
 */
function stemEnglishFixed(word: string): string {
  const stem = stemEnglish(word);
  const m = /^(.+?[st])ions?$/.exec(word);
  if (!m) return stem;
  const base = m[1]!;
  if (stem === base.slice(0, -1)) return base;
  if ((stem === word || stem === word.replace(/s$/, '')) && PORTER_M_GT_1.test(base)) return base;
  return stem;
}

/**
 * Folds and stems one word: Latin words with the English stemmer, Cyrillic words with the Russian one,
 * everything else (numbers, mixed words, other scripts) folded only.
 *
 * @example
 * normalizeTerm('Connections') // 'connect'
 * normalizeTerm('книги')       // 'книг'
 */
export function normalizeTerm(word: string): string {
  const w = foldWord(word);
  if (LATIN_WORD.test(w)) return stemEnglishFixed(w);
  if (CYRILLIC_WORD.test(w)) return stemRussian(w);
  return w;
}

// Folding and stemming cost more than segmenting; words repeat (Zipf), so results are memoised. The cache is
// dropped when full rather than managed as an LRU: refilling it is cheap.
type Memo = Map<string, { term: string; stop: boolean } | null>;
const MEMO: Memo = new Map();
const MEMO_UNSTEMMED: Memo = new Map();
const MEMO_MAX = 100_000;

function termOf(word: string, stem: boolean): { term: string; stop: boolean } | null {
  const memo = stem ? MEMO : MEMO_UNSTEMMED;
  let r = memo.get(word);
  if (r !== undefined) return r;
  const folded = foldWord(word);
  if (!folded || folded.length > MAX_TERM_LENGTH) r = null;
  else {
    const term = !stem ? folded : LATIN_WORD.test(folded) ? stemEnglishFixed(folded) : CYRILLIC_WORD.test(folded) ? stemRussian(folded) : folded;
    r = { term, stop: STOPWORDS.has(folded) };
  }
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, r);
  return r;
}

function pushWord(out: Token[], word: string, start: number, stem: boolean): void {
  const r = termOf(word, stem);
  if (!r) return;
  const token: Token = { term: r.term, start, end: start + word.length };
  if (r.stop) token.stop = true;
  out.push(token);
  if (PART_SEPARATOR.test(word) && /\p{L}/u.test(word)) {
    let offset = 0;
    for (const part of word.split(PART_SEPARATOR)) {
      const at = word.indexOf(part, offset);
      offset = at + part.length;
      if (part && part.length < word.length) pushWord(out, part, start + at, stem);
    }
  }
}

function pushCjkRun(out: Token[], run: string, start: number, mode: CjkMode): void {
  const chars = Array.from(run);
  const offsets: number[] = [];
  let o = start;
  for (const c of chars) {
    offsets.push(o);
    o += c.length;
  }
  offsets.push(o);
  const unigrams = mode.includes('unigrams');
  const bigrams = mode.includes('bigrams');
  // Most CJK text is already NFKC; only then may characters be used as terms without folding each n-gram.
  const fold = run.normalize('NFKC') === run ? (x: string) => x : foldWord;
  for (let i = 0; i < chars.length; i++) {
    if (unigrams) out.push({ term: fold(chars[i]!), start: offsets[i]!, end: offsets[i + 1]! });
    if (bigrams && i + 1 < chars.length) out.push({ term: fold(chars[i]! + chars[i + 1]!), start: offsets[i]!, end: offsets[i + 2]! });
  }
  // A lone character has no bigram; without it a one-character query ("库") could never match.
  if (bigrams && !unigrams && chars.length === 1) out.push({ term: fold(chars[0]!), start, end: offsets[1]! });
}

const ASCII = /^[\x00-\x7f]*$/;
/**
 * The word-like segments `Intl.Segmenter` finds in ASCII text, without it: Unicode's word-boundary rules (UAX #29)
 * as ICU applies them, restricted to ASCII — letters, digits and `_` (ExtendNumLet) join; `.`, `:` and `'` join two
 * letters (MidLetter / MidNumLetQ, "e.g", "don't", "a:b"); `.`, `,`, `;` and `'` join two digits (MidNum,
 * "1,000", "3.14"). A lone `_` is the one such run ICU does not call word-like. The segmenter costs ≈ 1 µs per
 * character (about 1.5 ms of each 4 KB text file written, issue 30); this regex ≈ 0.02 µs. tokenize.test.ts
 * compares both on random ASCII, so a Node whose ICU draws the lines elsewhere fails there.
 */
const ASCII_WORD = /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[.:'](?=[A-Za-z])|(?<=[0-9])[.,;'](?=[0-9]))[A-Za-z0-9_]+)*/g;

/**
 * The word-like segments of `text` with their offsets, as `Intl.Segmenter` (word granularity) yields them.
 *
 * @example
 * [...wordSegments("e.g. 1,000 don't")].map((s) => s.segment) // ['e.g', '1,000', "don't"]
 */
export function* wordSegments(text: string): Generator<{ segment: string; index: number }> {
  if (ASCII.test(text)) {
    for (const m of text.matchAll(ASCII_WORD)) if (m[0] !== '_') yield { segment: m[0], index: m.index };
    return;
  }
  for (const seg of SEGMENTER.segment(text)) if (seg.isWordLike) yield seg;
}

/**
 * V8's segmenter slows down with the length of the string it walks (≈0.5 µs/char at 1k chars, 3 µs at 30k,
 * 120 µs at 300k: quadratic), so text is segmented in pieces of about PIECE_CHARS, cut at a space. A cut inside
 * a long run without spaces (CJK) may split one dictionary word; the bigrams of the run are unaffected.
 */
const PIECE_CHARS = 1_000;

function pieceEnd(text: string, from: number): number {
  let end = from + PIECE_CHARS;
  if (end >= text.length) return text.length;
  for (let i = end; i > end - 200; i--) if (/\s/.test(text[i - 1]!)) return i;
  if (/[\udc00-\udfff]/.test(text[end]!)) end++;
  return end;
}

/**
 * Splits text into index terms with their offsets in the original text, sorted by start offset.
 * Words come from `Intl.Segmenter` (word granularity, word-like segments only), are folded and stemmed;
 * runs of CJK characters additionally (or instead) yield character n-grams per `opts.cjk`.
 *
 * @example
 * tokenize('Connected, мир!').map((t) => t.term)   // ['connect', 'мир']
 * tokenize('我们的数据库').map((t) => t.term)        // ['我们', '我们', '们的', '的', '的数', '数据', '数据', '据库', '库']
 */
export function tokenize(text: string, opts: TokenizeOptions = {}): Token[] {
  const cjk = opts.cjk ?? DEFAULT_CJK_MODE;
  const stem = opts.stem ?? true;
  const out: Token[] = [];
  // One plain alphabetic word (most query words, every word a snippet checks) is one segment by UAX #29;
  // skipping the segmenter call saves ~10 µs per word.
  if (text.length <= MAX_TERM_LENGTH && SIMPLE_WORD.test(text)) {
    pushWord(out, text, 0, stem);
    return out;
  }
  const wantWords = cjk.includes('words');
  if (ASCII.test(text)) {
    // The common case (a text file in English, code): the regex of wordSegments straight, in the same pieces —
    // no segment objects, and no CJK to look for (issue 30: this runs for every text file written).
    for (let from = 0; from < text.length;) {
      const to = pieceEnd(text, from);
      ASCII_WORD.lastIndex = 0;
      const piece = text.slice(from, to);
      for (let m = ASCII_WORD.exec(piece); m; m = ASCII_WORD.exec(piece)) if (m[0] !== '_') pushWord(out, m[0], from + m.index, stem);
      from = to;
    }
    return out;
  }
  for (let from = 0; from < text.length;) {
    const to = pieceEnd(text, from);
    for (const seg of wordSegments(text.slice(from, to))) {
      const start = from + seg.index;
      if (CJK.test(seg.segment)) {
        if (wantWords && seg.segment.length <= MAX_TERM_LENGTH) out.push({ term: foldWord(seg.segment), start, end: start + seg.segment.length });
        continue;
      }
      pushWord(out, seg.segment, start, stem);
    }
    from = to;
  }
  if (cjk !== 'words' && CJK.test(text)) {
    for (const m of text.matchAll(CJK_RUN)) pushCjkRun(out, m[0], m.index, cjk);
    out.sort((a, b) => a.start - b.start || a.end - b.end);
  }
  return out;
}
