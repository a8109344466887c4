import { StoaError } from '@stoa/contract';

/**
 * Glob matching in time linear in the path (times the pattern's length), whatever the pattern: the pattern is
 * compiled to a small automaton whose states are positions in the pattern, and a path is read once, carrying the
 * set of live states. A backtracking matcher (a regex from picomatch) stalled the server for minutes on a short
 * pattern over long names (issue 27).
 *
 * Syntax: `*` any run within one folder, `**` as a whole segment any run of folders (`**\/` may match none),
 * `?` one character other than `/`, `[abc]` `[a-z]` `[!a]` `[^a]` one character of a set, `{a,b}` alternatives
 * (at most MAX_ALTERNATIVES after expansion), `\x` the character x. Dot files match like any other.
 */

/** Alternatives a pattern may expand to through `{a,b}`; beyond, it is refused, as `{a,b}{a,b}…` doubles each time. */
const MAX_ALTERNATIVES = 256;

type Step =
  | { kind: 'char'; char: string }
  | { kind: 'one' }
  | { kind: 'set'; negated: boolean; ranges: Array<[string, string]> }
  | { kind: 'star' }
  | { kind: 'globstar' }
  /** An epsilon move either to the next step or past `skip` steps: `**\/` and `/**` may match nothing. */
  | { kind: 'optional'; skip: number };

/** Splits `{a,b}` groups into whole patterns, innermost choices included. */
function expandBraces(pattern: string, out: string[]): void {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const choices: string[] = [];
      let level = 0;
      let from = open + 1;
      for (let j = open + 1; j < i; j++) {
        const d = pattern[j];
        if (d === '\\') j++;
        else if (d === '{') level++;
        else if (d === '}') level--;
        else if (d === ',' && level === 0) {
          choices.push(pattern.slice(from, j));
          from = j + 1;
        }
      }
      choices.push(pattern.slice(from, i));
      // `{a}` is no choice: it stays as written, as in a shell.
      if (choices.length < 2) continue;
      for (const choice of choices) {
        expandBraces(pattern.slice(0, open) + choice + pattern.slice(i + 1), out);
        if (out.length > MAX_ALTERNATIVES) throw new StoaError('bad_request', `the pattern expands to more than ${MAX_ALTERNATIVES} alternatives`);
      }
      return;
    }
  }
  out.push(pattern);
}

/** Reads `[...]` from `at` (the `[`); null when there is no closing `]`, and the `[` is then a plain character. */
function readSet(pattern: string, at: number): { step: Step; end: number } | null {
  let i = at + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  for (; i < pattern.length; i++) {
    let c = pattern[i]!;
    if (c === ']' && !first) return { step: { kind: 'set', negated, ranges }, end: i };
    first = false;
    if (c === '\\' && i + 1 < pattern.length) c = pattern[++i]!;
    if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      let to = pattern[i + 2]!;
      i += 2;
      if (to === '\\' && i + 1 < pattern.length) to = pattern[++i]!;
      ranges.push([c, to]);
    } else ranges.push([c, c]);
  }
  return null;
}

function compileOne(pattern: string): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      let j = i;
      while (pattern[j + 1] === '*') j++;
      const segmentStart = i === 0 || pattern[i - 1] === '/';
      const segmentEnd = j + 1 === pattern.length || pattern[j + 1] === '/';
      if (j > i && segmentStart && segmentEnd) {
        if (pattern[j + 1] === '/') {
          // `**/`: nothing, or any run of folders ending in `/`.
          steps.push({ kind: 'optional', skip: 3 }, { kind: 'globstar' }, { kind: 'char', char: '/' });
          j++;
        } else if (steps.length > 0 && steps[steps.length - 1]!.kind === 'char' && (steps[steps.length - 1] as { char: string }).char === '/') {
          // `a/**`: `a` itself, or anything below it.
          steps.pop();
          steps.push({ kind: 'optional', skip: 3 }, { kind: 'char', char: '/' }, { kind: 'globstar' });
        } else steps.push({ kind: 'globstar' });
      } else steps.push({ kind: 'star' });
      i = j;
    } else if (c === '?') steps.push({ kind: 'one' });
    else if (c === '[') {
      const set = readSet(pattern, i);
      if (set) {
        steps.push(set.step);
        i = set.end;
      } else steps.push({ kind: 'char', char: c });
    } else if (c === '\\' && i + 1 < pattern.length) steps.push({ kind: 'char', char: pattern[++i]! });
    else steps.push({ kind: 'char', char: c });
  }
  return steps;
}

function inSet(step: Extract<Step, { kind: 'set' }>, c: string): boolean {
  if (c === '/') return false;
  let hit = false;
  for (const [from, to] of step.ranges) if (c >= from && c <= to) hit = true;
  return hit !== step.negated;
}

/** For each state, the states reachable from it without reading a character (itself included). */
function closures(steps: Step[]): Int32Array[] {
  const out: Int32Array[] = [];
  for (let start = 0; start <= steps.length; start++) {
    const seen = new Set<number>();
    const toVisit = [start];
    while (toVisit.length > 0) {
      const state = toVisit.pop()!;
      if (seen.has(state)) continue;
      seen.add(state);
      const step = steps[state];
      if (step?.kind === 'star' || step?.kind === 'globstar') toVisit.push(state + 1);
      else if (step?.kind === 'optional') toVisit.push(state + 1, state + step.skip);
    }
    out.push(Int32Array.from(seen));
  }
  return out;
}

/** A compiled pattern: its steps and their closures, and the buffers a match reuses (no allocation per character). */
interface Machine {
  steps: Step[];
  closure: Int32Array[];
  mark: Int32Array;
  lists: [Int32Array, Int32Array];
  generation: number;
}

function machineOf(steps: Step[]): Machine {
  const size = steps.length + 1;
  return { steps, closure: closures(steps), mark: new Int32Array(size), lists: [new Int32Array(size), new Int32Array(size)], generation: 0 };
}

/** Reads `path` once, carrying the set of live states: time linear in the path times the pattern's length. */
function matchSteps(m: Machine, path: string): boolean {
  const { steps, closure, mark } = m;
  let [live, next] = m.lists;
  let liveCount = 0;
  const gen = () => {
    if (++m.generation === 0x7fffffff) {
      mark.fill(0);
      m.generation = 1;
    }
    return m.generation;
  };
  let g = gen();
  for (const s of closure[0]!) {
    if (mark[s] === g) continue;
    mark[s] = g;
    live[liveCount++] = s;
  }
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    // A surrogate pair is one character, as `?` and sets see it.
    const wide = code >= 0xd800 && code <= 0xdbff && i + 1 < path.length;
    const c = wide ? path.slice(i, i + 2) : path[i]!;
    if (wide) i++;
    g = gen();
    let nextCount = 0;
    for (let k = 0; k < liveCount; k++) {
      const state = live[k]!;
      const step = steps[state];
      if (!step) continue;
      let to = -1;
      switch (step.kind) {
        case 'char':
          if (c === step.char) to = state + 1;
          break;
        case 'one':
          if (c !== '/') to = state + 1;
          break;
        case 'set':
          if (inSet(step, c)) to = state + 1;
          break;
        case 'star':
          if (c !== '/') to = state;
          break;
        case 'globstar':
          to = state;
          break;
        case 'optional':
          break;
      }
      if (to < 0) continue;
      for (const s of closure[to]!) {
        if (mark[s] === g) continue;
        mark[s] = g;
        next[nextCount++] = s;
      }
    }
    if (nextCount === 0) return false;
    [live, next] = [next, live];
    liveCount = nextCount;
  }
  for (let k = 0; k < liveCount; k++) if (live[k] === steps.length) return true;
  return false;
}

/**
 * The same automaton for a pattern of at most 30 steps, its set of live states held in the bits of one integer
 * (bit-parallel, as in Shift-And): a character moves every state at once, so a match costs a few operations a
 * character, not one per live state.
 */
function bitMatcher(steps: Step[]): ((path: string) => boolean) | null {
  const m = steps.length;
  if (m > 30) return null;
  const closure = closures(steps);
  const closureMask = closure.map((list) => list.reduce((mask, s) => mask | (1 << s), 0));
  const close = (x: number) => {
    let out = 0;
    for (let rest = x; rest !== 0; rest &= rest - 1) out |= closureMask[31 - Math.clz32(rest & -rest)]!;
    return out;
  };
  let star = 0;
  let globstar = 0;
  let one = 0;
  const chars = new Map<string, number>();
  const sets: Array<[number, Extract<Step, { kind: 'set' }>]> = [];
  steps.forEach((step, s) => {
    if (step.kind === 'star') star |= 1 << s;
    else if (step.kind === 'globstar') globstar |= 1 << s;
    else if (step.kind === 'one') one |= 1 << s;
    else if (step.kind === 'char') chars.set(step.char, (chars.get(step.char) ?? 0) | (1 << s));
    else if (step.kind === 'set') sets.push([s, step]);
  });
  // What each character lets move one step on; sets are tested once per distinct character of the paths seen.
  const consumeCache = new Map<string, number>();
  const consumes = (c: string) => {
    let mask = consumeCache.get(c);
    if (mask === undefined) {
      mask = chars.get(c) ?? 0;
      if (c !== '/') {
        mask |= one;
        for (const [s, step] of sets) if (inSet(step, c)) mask |= 1 << s;
      }
      if (consumeCache.size < 4096) consumeCache.set(c, mask);
    }
    return mask;
  };
  const start = closureMask[0]!;
  const accept = 1 << m;
  return (path) => {
    let live = start;
    for (const c of path) {
      const moved = ((live & consumes(c)) << 1) | (live & globstar) | (c === '/' ? 0 : live & star);
      if (moved === 0) return false;
      live = close(moved);
    }
    return (live & accept) !== 0;
  };
}

/**
 * Compiles a glob into a test of paths (see the module's comment for the syntax).
 *
 * @example
 * const m = compileGlob('reports/**\/*.{csv,xlsx}');
 * m('reports/2026/q1.csv') // true
 * m('reports/q1.pdf') // false
 */
export function compileGlob(pattern: string): (path: string) => boolean {
  const alternatives: string[] = [];
  expandBraces(pattern, alternatives);
  const matchers = alternatives.map((a) => {
    const steps = compileOne(a);
    const machine = machineOf(steps);
    return bitMatcher(steps) ?? ((path: string) => matchSteps(machine, path));
  });
  return (path) => matchers.some((match) => match(path));
}
