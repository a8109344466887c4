/** One line of a line diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/**
 * Shortest line diff of two texts (Myers' O(ND) algorithm), after trimming the common head and tail so
 * typical edits of long pages stay cheap.
 *
 * @example
 * diffLines('a\nb\nc', 'a\nc\nd') // [{op:' ',text:'a'},{op:'-',text:'b'},{op:' ',text:'c'},{op:'+',text:'d'}]
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const mid = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map((text) => ({ op: ' ' as const, text })), ...mid, ...a.slice(a.length - tail).map((text) => ({ op: ' ' as const, text }))];
}

/** Entries of the Myers trace kept at most (64 MB of Int32). */
const TRACE_BUDGET = 16_000_000;

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => ({ op: '+', text }));
  if (m === 0) return a.map((text) => ({ op: '-', text }));
  const max = n + m;
  const offset = max;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    // Very different long texts: show all old lines removed and all new ones added rather than use gigabytes.
    if ((d + 1) * v.length > TRACE_BUDGET) return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace back from (n, m) to (0, 0).
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[x - 1]! });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) out.push({ op: '+', text: b[y - 1]! });
    else out.push({ op: '-', text: a[x - 1]! });
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

/**
 * A readable unified-style rendering: changed lines with `context` unchanged lines around them, `@@` markers
 * between distant hunks, each line prefixed with ' ', '-' or '+'.
 *
 * @example
 * renderDiff(diffLines('a\nb', 'a\nc')) // ' a\n-b\n+c'
 */
export function renderDiff(lines: DiffLine[], context = 3): string {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: string[] = [];
  let gap = false;
  lines.forEach((l, i) => {
    if (!keep[i]) {
      gap = true;
      return;
    }
    if (gap && out.length > 0) out.push('@@');
    gap = false;
    out.push(`${l.op}${l.text}`);
  });
  return out.join('\n');
}
