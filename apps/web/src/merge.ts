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
