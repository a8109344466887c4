/** Line number (from 1) of a character offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Every offset where `needle` starts, overlapping ones included, up to `cap`: "aa" occurs twice in "xaaay", so an
 * edit of it is ambiguous and refused rather than applied to the first.
 *
 * @example
 * occurrences('xaaay', 'aa') // [1, 2]
 */
export function occurrences(text: string, needle: string, cap = 1000): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && out.length < cap; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Text with whitespace runs collapsed to one space, and a map from each kept character to its original offset. */
function squeeze(text: string, fold: boolean): { s: string; map: number[] } {
  let s = '';
  const map: number[] = [];
  let inWs = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (!inWs) {
        s += ' ';
        map.push(i);
      }
      inWs = true;
    } else {
      s += fold ? c.toLowerCase() : c;
      map.push(i);
      inWs = false;
    }
  }
  return { s, map };
}

function levenshtein(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

function quote(s: string, max = 400): string {
  return JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);
}

/**
 * When `old_str` is not in the file, the nearest near-miss (B5): the same text with other whitespace, or
 * other case, or else the most similar line. Null when nothing is reasonably close.
 *
 * @example
 * nearMiss('a  =  1\nb = 2\n', 'a = 1') // 'line 1 has it with different whitespace: "a  =  1"'
 */
export function nearMiss(text: string, needle: string): string | null {
  for (const fold of [false, true]) {
    const hay = squeeze(text, fold);
    const n = squeeze(needle.trim(), fold).s;
    if (!n.trim()) return null;
    const at = hay.s.indexOf(n);
    if (at !== -1) {
      const start = hay.map[at]!;
      const end = hay.map[at + n.length - 1]! + 1;
      return `line ${lineAt(text, start)} has it with different ${fold ? 'case or whitespace' : 'whitespace'}: ${quote(text.slice(start, end))}`;
    }
  }
  const first = needle
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!first) return null;
  const probe = first.slice(0, 200);
  let best: { line: number; score: number; text: string } | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && i < 20000; i++) {
    const l = lines[i]!.trim().slice(0, 200);
    if (!l) continue;
    const score = 1 - levenshtein(probe.toLowerCase(), l.toLowerCase()) / Math.max(probe.length, l.length);
    if (!best || score > best.score) best = { line: i + 1, score, text: lines[i]! };
  }
  if (!best || best.score < 0.5) return null;
  return `the most similar line is line ${best.line}: ${quote(best.text)}`;
}

/** A name folded for comparison: case and separators do not matter ("expectedVersion" ~ "expected_version"). */
function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s.]/g, '');
}

/**
 * The valid name nearest to a misspelt one, or null when none is close: same letters in another case or with
 * other separators first, then the smallest edit distance up to a third of the name.
 *
 * @example
 * nearestName('expectedVersion', ['path', 'expected_version']) // 'expected_version'
 * nearestName('base', ['file', 'content', 'expected_version'])  // null
 */
export function nearestName(name: string, candidates: readonly string[]): string | null {
  const f = fold(name);
  const same = candidates.find((c) => fold(c) === f);
  if (same) return same;
  let best: { c: string; d: number } | null = null;
  for (const c of candidates) {
    const d = levenshtein(f, fold(c));
    if (!best || d < best.d) best = { c, d };
  }
  return best && best.d <= Math.max(1, Math.floor(f.length / 3)) ? best.c : null;
}
