/**
 * How well `query` fuzzily matches `text`, or null when it does not: every character of the query must appear
 * in order (case and accents folded). Consecutive characters, a start of a word or path segment, and a match in
 * the last path segment (the name) score higher, so "rpt" finds "reports/plan.txt" but ranks "rpt.md" first.
 *
 * @example
 * fuzzyScore('plan', 'reports/plan.txt') // > fuzzyScore('plan', 'people/lanterns.md')
 * fuzzyScore('zz', 'reports/plan.txt') // null
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = fold(query).replace(/\s+/g, '');
  if (!q) return 0;
  const s = fold(text);
  const nameStart = s.lastIndexOf('/') + 1;
  // Greedy from each place the first letter occurs, the best of them: "plan" in "reports/plan.txt" is the name's,
  // not the "p" of "reports" followed by scattered letters.
  let best: number | null = null;
  for (let start = s.indexOf(q[0]!); start >= 0; start = s.indexOf(q[0]!, start + 1)) {
    const score = greedy(q, s, start, nameStart);
    if (score !== null && (best === null || score > best)) best = score;
  }
  if (best === null) return null;
  let score = best;
  // A whole match of the name beats a scattered one; shorter texts beat longer ones at equal matches.
  if (s.slice(nameStart).startsWith(q)) score += 5;
  return score - s.length / 100;
}

function greedy(q: string, s: string, from: number, nameStart: number): number | null {
  let score = 0;
  let at = from;
  let run = 0;
  for (const c of q) {
    const i = s.indexOf(c, at);
    if (i < 0) return null;
    run = i === at && at > from ? run + 1 : 0;
    const boundary = i === 0 || /[\s/._-]/.test(s[i - 1]!);
    score += 1 + run * 2 + (boundary ? 3 : 0) + (i >= nameStart ? 1 : 0) - Math.min(3, (i - at) / 8);
    at = i + 1;
  }
  return score;
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
