/**
 * Issue 30's aims, as each benchmark measures them: a figure, the line it is held to, and whether this run met
 * it. A benchmark calls {@link reportAims} once with what it measured; the lines are printed under its tables, and
 * — when `npm run bench` runs it (scripts/bench-all.ts sets `BENCH_AIMS_FILE`) — appended to a file of JSON lines
 * from which the run's summary gathers every aim into one table. Nothing here decides a test: a figure of a noisy
 * machine is reported, never asserted.
 *
 * @example
 * reportAims([{ aim: 'PUT 4 KB ÷ bare-fsync', value: 0.86, line: 0.8, unit: '×', better: 'higher' }]);
 * // Aim PUT 4 KB ÷ bare-fsync: 0.86× (line ≥ 0.80×) — met
 */
import { appendFileSync } from 'node:fs';

export interface Aim {
  /** What is measured, as the summary names it: the item of issue 30 and the quantity. */
  aim: string;
  /** The figure of this run; NaN when it could not be measured (the aim is then reported as such). */
  value: number;
  /** The line of the aim, in the figure's unit. */
  line: number;
  unit: '×' | 'ms' | 'MB';
  /** Whether the figure must reach the line from above (`higher`: value ≥ line) or stay under it (`lower`). */
  better: 'higher' | 'lower';
  /** A strict bound (`<` rather than `≤`, `>` rather than `≥`). */
  strict?: boolean;
  /** What the figure was measured against or on, where the name does not say (sizes, engine, peer). */
  note?: string;
}

type Verdict = 'met' | 'not met' | 'not measured';

/** Whether `a`'s figure keeps to its line. */
export function verdict(a: Aim): Verdict {
  if (!Number.isFinite(a.value)) return 'not measured';
  if (a.better === 'higher') return (a.strict ? a.value > a.line : a.value >= a.line) ? 'met' : 'not met';
  return (a.strict ? a.value < a.line : a.value <= a.line) ? 'met' : 'not met';
}

/** The figure with its unit: ratios to two decimals, milliseconds and megabytes to one. */
function formatFigure(value: number, unit: Aim['unit']): string {
  if (!Number.isFinite(value)) return '–';
  return unit === '×' ? `${value.toFixed(2)}×` : `${value.toFixed(1)} ${unit}`;
}

/** The line as the issue states it: "≥ 0.80×", "< 50.0 ms". */
function formatLine(a: Aim): string {
  const sign = a.better === 'higher' ? (a.strict ? '>' : '≥') : a.strict ? '<' : '≤';
  return `${sign} ${formatFigure(a.line, a.unit)}`;
}

/** Prints each aim under the benchmark's tables and, within `npm run bench`, records it for the run's summary. */
export function reportAims(aims: readonly Aim[], file: string | undefined = process.env.BENCH_AIMS_FILE): void {
  if (aims.length === 0) return;
  const lines = aims.map((a) => `Aim ${a.aim}: ${formatFigure(a.value, a.unit)} (line ${formatLine(a)}${a.note ? `; ${a.note}` : ''}) — ${verdict(a)}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (file) appendFileSync(file, aims.map((a) => JSON.stringify(a)).join('\n') + '\n');
}

/** The run's aims as one Markdown table, in the order they were measured. */
export function aimsTable(aims: readonly Aim[]): string[] {
  return [
    '| aim | this run | line | met |',
    '| --- | --- | --- | --- |',
    ...aims.map((a) => `| ${a.aim}${a.note ? ` (${a.note})` : ''} | ${formatFigure(a.value, a.unit)} | ${formatLine(a)} | ${verdict(a)} |`),
  ];
}

/** Aims recorded in a file of JSON lines; lines that are not an aim (a benchmark stopped mid-write) are left out. */
export function parseAims(text: string): Aim[] {
  const out: Aim[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const a = JSON.parse(line) as Partial<Aim>;
      if (typeof a.aim === 'string' && typeof a.line === 'number' && (a.better === 'higher' || a.better === 'lower'))
        out.push({ ...(a as Aim), value: typeof a.value === 'number' ? a.value : Number.NaN });
    } catch {
      // A partial line of a benchmark that was stopped: not an aim.
    }
  }
  return out;
}
