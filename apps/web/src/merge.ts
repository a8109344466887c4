import { diffArrays } from 'diff';

/** One change of a text against its base: base lines [start, end) became `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

function hunks(base: string[], other: string[]): Hunk[] {
  const out: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(base, other)) {
    if (!part.added && !part.removed) {
      if (open) out.push(open);
      open = null;
      at += part.count ?? part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) out.push(open);
  return out;
}

const split = (s: string) => (s === '' ? [] : s.split('\n'));

/**
 * A line-based three-way merge: the changes each side made to `base` are both applied; where both changed the
 * same lines (differently), both versions are kept between conflict markers for the user to settle.
 *
 * @example
 * merge3('a\nb\nc', 'A\nb\nc', 'a\nb\nC', { mine: 'yours', theirs: 'theirs' })
 * // { text: 'A\nb\nC', conflicts: 0 }
 */
export function merge3(base: string, mine: string, theirs: string, labels: { mine: string; theirs: string }): { text: string; conflicts: number } {
  const b = split(base);
  const m = hunks(b, split(mine));
  const t = hunks(b, split(theirs));
  const out: string[] = [];
  let at = 0;
  let conflicts = 0;
  let i = 0;
  let j = 0;
  // Changes that touch (adjacent lines too) are one region, as in git: an order between them would be a guess.
  const overlaps = (x: Hunk, y: Hunk) => x.start <= y.end && y.start <= x.end;
  while (i < m.length || j < t.length) {
    const a = m[i];
    const c = t[j];
    const first = !c || (a && a.start <= c.start) ? a! : c;
    // Gather every hunk of either side that touches the region, so one conflict covers all of it.
    let start = first.start;
    let end = first.end;
    const mine: Hunk[] = [];
    const theirs: Hunk[] = [];
    for (let grew = true; grew;) {
      grew = false;
      while (m[i] && (mine.length === 0 && theirs.length === 0 ? m[i] === first : overlaps(m[i]!, { start, end, lines: [] }))) {
        mine.push(m[i]!);
        start = Math.min(start, m[i]!.start);
        end = Math.max(end, m[i]!.end);
        i++;
        grew = true;
      }
      while (t[j] && (mine.length === 0 && theirs.length === 0 ? t[j] === first : overlaps(t[j]!, { start, end, lines: [] }))) {
        theirs.push(t[j]!);
        start = Math.min(start, t[j]!.start);
        end = Math.max(end, t[j]!.end);
        j++;
        grew = true;
      }
    }
    out.push(...b.slice(at, start));
    const side = (hs: Hunk[]) => {
      const lines: string[] = [];
      let k = start;
      for (const h of hs) {
        lines.push(...b.slice(k, h.start), ...h.lines);
        k = h.end;
      }
      return [...lines, ...b.slice(k, end)];
    };
    const mineText = side(mine);
    const theirText = side(theirs);
    if (!theirs.length) out.push(...mineText);
    else if (!mine.length || mineText.join('\n') === theirText.join('\n')) out.push(...theirText);
    else {
      conflicts++;
      out.push(`<<<<<<< ${labels.mine}`, ...mineText, '=======', ...theirText, `>>>>>>> ${labels.theirs}`);
    }
    at = end;
  }
  out.push(...b.slice(at));
  return { text: out.join('\n'), conflicts };
}

/** One place of a merged text where both versions are kept between conflict markers. */
interface MarkerBlock {
  /** Line index of `<<<<<<<` and of `>>>>>>>` (inclusive). */
  start: number;
  end: number;
  mine: string[];
  theirs: string[];
}

/**
 * The places of `text` still held between conflict markers, in order. Only a whole block counts (a `<<<<<<< `
 * line, then a `=======` line, then a `>>>>>>> ` line): a lone `=======` is a Markdown heading's underline.
 *
 * @example
 * markerBlocks('a\n<<<<<<< Yours\nx\n=======\ny\n>>>>>>> Theirs') // [{ start: 1, end: 5, mine: ['x'], theirs: ['y'] }]
 */
export function markerBlocks(text: string): MarkerBlock[] {
  const lines = split(text);
  const out: MarkerBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('<<<<<<< ')) continue;
    const mid = lines.indexOf('=======', i + 1);
    const end = mid < 0 ? -1 : lines.findIndex((l, k) => k > mid && l.startsWith('>>>>>>> '));
    if (mid < 0 || end < 0) break;
    // A second opening before the middle: the first was not a block's.
    if (lines.slice(i + 1, mid).some((l) => l.startsWith('<<<<<<< '))) continue;
    out.push({ start: i, end, mine: lines.slice(i + 1, mid), theirs: lines.slice(mid + 1, end) });
    i = end;
  }
  return out;
}

/**
 * `text` with its `index`-th marked place settled: your lines, theirs, or both (yours first).
 *
 * @example
 * settleBlock('<<<<<<< Yours\nx\n=======\ny\n>>>>>>> Theirs', 0, 'theirs') // 'y'
 */
export function settleBlock(text: string, index: number, pick: 'mine' | 'theirs' | 'both'): string {
  const block = markerBlocks(text)[index];
  if (!block) return text;
  const lines = split(text);
  const kept = pick === 'mine' ? block.mine : pick === 'theirs' ? block.theirs : [...block.mine, ...block.theirs];
  return [...lines.slice(0, block.start), ...kept, ...lines.slice(block.end + 1)].join('\n');
}
