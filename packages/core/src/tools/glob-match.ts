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

/** Adds `state` and every state reachable from it without reading a character. */
function close(steps: Step[], live: Uint8Array, list: number[], state: number): void {
  if (live[state]) return;
  live[state] = 1;
  list.push(state);
  const step = steps[state];
  if (!step) return;
  if (step.kind === 'star' || step.kind === 'globstar') close(steps, live, list, state + 1);
  else if (step.kind === 'optional') {
    close(steps, live, list, state + 1);
    close(steps, live, list, state + step.skip);
  }
}

function matchSteps(steps: Step[], path: string): boolean {
  const size = steps.length + 1;
  let live = new Uint8Array(size);
  let next = new Uint8Array(size);
  let list: number[] = [];
  close(steps, live, list, 0);
  for (const c of path) {
    const nextList: number[] = [];
    next.fill(0);
    for (const state of list) {
      const step = steps[state];
      if (!step) continue;
      switch (step.kind) {
        case 'char':
          if (c === step.char) close(steps, next, nextList, state + 1);
          break;
        case 'one':
          if (c !== '/') close(steps, next, nextList, state + 1);
          break;
        case 'set':
          if (inSet(step, c)) close(steps, next, nextList, state + 1);
          break;
        case 'star':
          if (c !== '/') close(steps, next, nextList, state);
          break;
        case 'globstar':
          close(steps, next, nextList, state);
          break;
        case 'optional':
          break;
      }
    }
    if (nextList.length === 0) return false;
    [live, next] = [next, live];
    list = nextList;
  }
  return live[steps.length] === 1;
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
  const compiled = alternatives.map(compileOne);
  return (path) => compiled.some((steps) => matchSteps(steps, path));
}
