/**
 * The main thread's CPU time of the Files page's first load, up to the frame that showed its first file row, in a real Chromium
 * (issue 13): read from a DevTools trace as thread time (`tdur`), not wall time, so the other work of a shared
 * machine moves it far less than it moves `bench/web-timeline.ts`'s milliseconds. Split by what the time went to:
 * evaluating scripts, running them (React's render, effects, timers), style and layout, paint, the rest (parsing
 * HTML, committing the navigation, compiling). Medians of the loads.
 *
 *   npm run build:web && npm run build && node --import tsx bench/web-cpu.ts [--loads 8] [--returning] [--against DIR]
 *
 * `--against DIR` loads another checkout (built) by turns with this one; `--returning` as in web-timeline.ts.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openFiles, takeTurns, type SeededServer } from './lib/first-load.js';
import { percentile } from './lib/stats.js';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const LOADS = Number(arg('--loads') ?? 8);
const RETURNING = process.argv.includes('--returning');
const AGAINST = arg('--against');
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-cpu-'));

/** Trace events' names, by what the main thread spent the time on. */
const KINDS: Record<string, string> = {
  'v8.evaluateModule': 'evaluate scripts',
  EvaluateScript: 'evaluate scripts',
  FunctionCall: 'run scripts',
  FireIdleCallback: 'run scripts',
  FireAnimationFrame: 'run scripts',
  TimerFire: 'run scripts',
  RunMicrotasks: 'run scripts',
  EventDispatch: 'run scripts',
  UpdateLayoutTree: 'style and layout',
  Layout: 'style and layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
};
const COLUMNS = ['main thread CPU', 'evaluate scripts', 'run scripts', 'style and layout', 'paint', 'other'] as const;
type Cpu = Record<(typeof COLUMNS)[number], number>;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { url?: string } };
}

/** Starts a trace of the page's renderer; the returned function ends it and hands over its events. */
async function startTrace(page: Page): Promise<() => Promise<TraceEvent[]>> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing,loading',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    return events;
  };
}

/**
 * The main thread's CPU from navigation to `untilMs`: the thread time of its tasks, each split among the events
 * directly inside it (what no event covers is "other").
 */
function mainThreadCpu(events: TraceEvent[], untilMs: number): Cpu {
  // The page's main thread is the one that ran the app's scripts (the trace also holds other renderers).
  const script = events.find((e) => e.name === 'v8.evaluateModule' || (e.name === 'FunctionCall' && e.args?.data?.url?.includes('/assets/')));
  const cpu: Cpu = { 'main thread CPU': 0, 'evaluate scripts': 0, 'run scripts': 0, 'style and layout': 0, paint: 0, other: 0 };
  if (!script) return cpu;
  const onMain = events.filter((e) => e.pid === script.pid && e.tid === script.tid && e.ph === 'X');
  const navigation = events.filter((e) => e.name === 'navigationStart' && e.pid === script.pid && e.tid === script.tid).at(-1);
  const from = navigation?.ts ?? Math.min(...onMain.map((e) => e.ts));
  const to = from + untilMs * 1000;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts >= from && e.ts <= to);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((e) => e !== task && e.name !== 'RunTask' && e.ts >= task.ts && e.ts < end);
    const outermost = inside.filter(
      (e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.ts < e.ts || (o.dur ?? 0) > (e.dur ?? 0))),
    );
    let covered = 0;
    for (const e of outermost) {
      const kind = (KINDS[e.name] ?? 'other') as keyof Cpu;
      cpu[kind] += (e.tdur ?? 0) / 1000;
      covered += (e.tdur ?? 0) / 1000;
    }
    cpu.other += Math.max(0, (task.tdur ?? 0) / 1000 - covered);
    cpu['main thread CPU'] += (task.tdur ?? 0) / 1000;
  }
  return cpu;
}

async function load(browser: Browser, side: SeededServer): Promise<Cpu> {
  let stop: () => Promise<TraceEvent[]> = async () => [];
  const { context, page } = await openFiles(browser, side, { returning: RETURNING, beforeLoad: async (p) => void (stop = await startTrace(p)) });
  const shown = (await page.evaluate('window.firstRowShownAt')) as number;
  const cpu = mainThreadCpu(await stop(), shown);
  await context.close();
  return cpu;
}

const { labels, runs } = await takeTurns({ work, against: AGAINST, loads: LOADS, load });

const med = (n: number, k: keyof Cpu) =>
  percentile(
    runs[n]!.filter((r) => r['main thread CPU'] > 0).map((r) => r[k]),
    50,
  );
const traced = runs.map((r) => r.filter((c) => c['main thread CPU'] > 0).length);
console.log(
  `\n${LOADS} loads each${RETURNING ? ' (returning user)' : ''} (${traced.join(' and ')} traced), medians of main-thread CPU ms up to the first file row shown; load average ${loadavg()[0]!.toFixed(2)}\n`,
);
console.log(`| CPU | ${labels.join(' | ')} |${AGAINST ? ' ratio |' : ''}`);
console.log(`| --- | ${labels.map(() => '---').join(' | ')} |${AGAINST ? ' --- |' : ''}`);
for (const k of COLUMNS)
  console.log(
    `| ${k} | ${labels.map((_, n) => med(n, k).toFixed(0)).join(' | ')} |${AGAINST ? ` ${(med(0, k) / Math.max(med(1, k), 0.5)).toFixed(2)}× |` : ''}`,
  );
