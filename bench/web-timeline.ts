/**
 * The first load of the Files page, step by step, in a real Chromium (issue 13): when the scripts arrived, when
 * `me` and the folder were asked for, when the folder's answer came, when the first file row entered the DOM, was
 * painted and was shown (its Element Timing: the frame's own time, whatever tasks run around the paint), and the
 * API bytes on the wire. Read in the page (Resource Timing, a MutationObserver, Element Timing), which tells the
 * driver on its console when the row is in, so nothing polls the page. Medians of the loads, ms from navigation.
 * `bench/web-cpu.ts` counts the main thread's CPU time of the same load, which the machine's load moves less.
 *
 *   npm run build:web && npm run build && node --import tsx bench/web-timeline.ts [--loads 5] [--files 200] [--returning | --again | --new-tab] [--no-settle] [--against DIR]
 *
 * `--files N` puts N files in the folder opened (200 by default; issue 30 measures 20 and 5,000).
 *
 * `--against DIR` loads another checkout (built, e.g. a `git worktree` of the commit before) by turns with this one
 * and prints the two side by side with their ratio.
 *
 * `--returning` loads as a returning user: the browser remembers the project picked last (as the UI does), so the
 * folder can be asked for beside the projects. Without it, the browser holds only the sign-in.
 *
 * Every load opens a new tab and lets it settle before the navigation (its renderer processes started, as a
 * person's tab is before they type the address); `--no-settle` navigates at once, so the load also pays for
 * Chromium starting the tab's processes (≈ 0.5 s of CPU each on a 2-core machine). Beside the checkouts, by
 * turns, the limit: a static page that is only the first row, from a bare node:http server (nothing to run or ask).
 *
 * `--again` loads the page again in a tab that has loaded it once (that first load is not counted): the scripts
 * come from the browser's cache, compiled code from V8's cache, and the tab's renderer is running — Stoa opened
 * again in a browser that has opened it before. `--new-tab` loads it in a new tab of such a browser (the first tab,
 * not counted, closed): a renderer process of its own, the browser's caches and the service worker shared — what
 * `bench/web.ts` calls warm. Without either every load is a first visit in a new browser context.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumIdle, loadFiles, openFiles, takeTurns, type SeededServer } from './lib/first-load.js';
import { percentile } from './lib/stats.js';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const LOADS = Number(arg('--loads') ?? 5);
const RETURNING = process.argv.includes('--returning');
const AGAIN = process.argv.includes('--again');
const NEW_TAB = process.argv.includes('--new-tab');
const SETTLE = !process.argv.includes('--no-settle');
const AGAINST = arg('--against');
const FILES = Number(arg('--files') ?? 200);
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-timeline-'));

const readSteps = `(() => {
  const all = performance.getEntriesByType('resource');
  const js = all.filter((e) => e.name.endsWith('.js'));
  const one = (part) => all.find((e) => e.name.includes(part));
  return {
    scripts: js.length ? Math.max(...js.map((e) => e.responseEnd)) : NaN,
    me: one('/api/v1/me')?.startTime ?? NaN,
    projectsIn: one('/api/v1/projects')?.responseEnd ?? NaN,
    folderAsked: one('/folders?')?.startTime ?? NaN,
    folderIn: one('/folders?')?.responseEnd ?? NaN,
    firstRow: window.firstRowAt,
    painted: window.firstRowPaintedAt,
    shown: window.firstRowShownAt,
    apiRequests: all.filter((e) => e.name.includes('/api/')).length,
    apiBeforeRow: all.filter((e) => e.name.includes('/api/') && e.responseEnd <= window.firstRowAt).length,
    apiBytes: all.filter((e) => e.name.includes('/api/')).reduce((n, e) => n + e.transferSize, 0),
  };
})()`;

type Steps = Record<
  'scripts' | 'me' | 'projectsIn' | 'folderAsked' | 'folderIn' | 'firstRow' | 'painted' | 'shown' | 'apiRequests' | 'apiBeforeRow' | 'apiBytes',
  number
>;
/** The tab of each side that `--again` loads the page in again; its first load (not counted) filled the cache. */
const tabs = new Map<SeededServer, Page>();

/** The browser context of each side that `--new-tab` opens new tabs in; its first load (not counted) filled the caches. */
const contexts = new Map<SeededServer, BrowserContext>();

/**
 * One load, read step by step: a first load in a fresh browser context (nothing cached), with `--again` a later
 * one in the same tab, with `--new-tab` a later one in a new tab of the same browser context.
 */
async function load(browser: Browser, side: SeededServer): Promise<Steps> {
  if (NEW_TAB) {
    let context = contexts.get(side);
    if (!context) {
      const first = await openFiles(browser, side, { returning: false });
      // Its requests done (the service worker installed) before the tab closes, as a visit that was read.
      await first.page.waitForLoadState('networkidle');
      await first.page.close();
      contexts.set(side, (context = first.context));
    }
    const page = await context.newPage();
    await chromiumIdle();
    await loadFiles(page, side);
    const steps = (await page.evaluate(readSteps)) as Steps;
    await page.waitForLoadState('networkidle');
    await page.close();
    return steps;
  }
  if (AGAIN) {
    let tab = tabs.get(side);
    if (!tab) tabs.set(side, (tab = (await openFiles(browser, side, { returning: false })).page));
    await loadFiles(tab, side);
    return (await tab.evaluate(readSteps)) as Steps;
  }
  const { context, page } = await openFiles(browser, side, { returning: RETURNING, settle: SETTLE });
  const steps = (await page.evaluate(readSteps)) as Steps;
  await context.close();
  return steps;
}

const { labels, runs } = await takeTurns({ work, against: AGAINST, loads: LOADS, floor: true, files: FILES, load });

// The limit's page has no scripts and asks nothing: its steps are NaN, shown as "–".
const med = (n: number, k: keyof Steps) => {
  const values = runs[n]!.map((r) => r[k]).filter((v) => !Number.isNaN(v));
  return values.length ? percentile(values, 50) : NaN;
};
const how = NEW_TAB
  ? ' (again, each in a new tab of a browser that has loaded it)'
  : AGAIN
    ? ' (again, in a tab that has loaded it)'
    : `${RETURNING ? ' (returning user)' : ''}${SETTLE ? '' : ' (the tab still starting)'}`;
console.log(`\n${FILES} files in the folder, ${LOADS} loads each${how}, medians, ms from navigation; load average ${loadavg()[0]!.toFixed(2)}\n`);
// The ratio is this checkout's over the other one's, or without one over the limit's.
console.log(`| step | ${labels.join(' | ')} | ${AGAINST ? 'ratio' : '× the limit'} |`);
console.log(`| --- | ${labels.map(() => '---').join(' | ')} | --- |`);
const row = (label: string, k: keyof Steps, show: (v: number) => string, ratio: boolean) =>
  console.log(
    `| ${label} | ${labels.map((_, n) => (Number.isNaN(med(n, k)) ? '–' : show(med(n, k)))).join(' | ')} | ${ratio ? `${(med(0, k) / med(1, k)).toFixed(2)}×` : ''} |`,
  );
for (const [k, label, ratio] of [
  ['scripts', 'scripts arrived', false],
  ['me', '`me` and `projects` asked', false],
  ['projectsIn', "the projects' answer in", false],
  ['folderAsked', 'the folder asked', false],
  ['folderIn', "the folder's answer in", false],
  ['firstRow', 'first file row in the DOM', true],
  ['painted', 'first file row painted', true],
  ['shown', 'first file row shown (Element Timing)', true],
] as const)
  row(label, k, (v) => v.toFixed(0), ratio);
row('API requests', 'apiRequests', String, false);
// What the first row waited for, which the machine's load does not move: 0 when it was drawn from last visit's answers.
row('API answers in before the first row', 'apiBeforeRow', String, false);
row('API bytes on the wire', 'apiBytes', (v) => `${(v / 1024).toFixed(1)} kB`, !!AGAINST);
