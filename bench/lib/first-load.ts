import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { startStoa, type StoaServer } from './stoa-server.js';

/** A running server of one checkout with a project of 200 files (or `files`), and that project's id. */
export interface SeededServer {
  server: Pick<StoaServer, 'url' | 'token' | 'stop'>;
  /** What a returning browser remembers as the project picked last. */
  project: string;
}

/**
 * Starts the `stoa` of a checkout (`root`, this one by default) on a fresh data folder and puts `files` small files
 * (200 by default) in its default project: the folder the Files page benches open. Eight uploads at a time.
 *
 * @example
 * const side = await seededServer(join(work, 'this'));
 */
async function seededServer(dataDir: string, root?: string, files = 200): Promise<SeededServer> {
  const server = await startStoa({ dataDir, root });
  const auth = { authorization: `Bearer ${server.token}` };
  const width = Math.max(3, String(files - 1).length);
  let next = 0;
  const uploader = async () => {
    for (let i = next++; i < files; i = next++) {
      const path = `report-${String(i).padStart(width, '0')}.md`;
      const res = await fetch(`${server.url}/api/v1/projects/default/files/content?path=${path}`, { method: 'PUT', headers: auth, body: `# Report ${i}\n` });
      if (!res.ok) throw new Error(`seeding ${path}: HTTP ${res.status}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, uploader));
  const projects = (await (await fetch(`${server.url}/api/v1/projects`, { headers: auth })).json()) as Array<{ id: string; name: string }>;
  return { server, project: projects.find((p) => p.name === 'default')!.id };
}

/**
 * The limit a first load of the Files page is measured against: a page that is only its first file row, static
 * HTML from a bare node:http server, nothing to run or ask for. What a browser needs to show any row at all.
 */
async function floorServer(): Promise<SeededServer> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Stoa</title></head>' +
    '<body><table class="files"><tbody><tr data-path="report-000.md"><td>report-000.md</td></tr></tbody></table></body></html>';
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server: { url, token: '', stop: () => new Promise<void>((done) => server.close(() => done())) }, project: '' };
}

/** Debian's Chromium, headless, without the background work a first run would add. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
}

// Plain strings, not functions: tsx would add helpers to a function's text that the page does not have.
// The page says on its console when the element is painted and shown: the driver waits for those lines instead of
// polling the page, which would load the driver's own script into the page and run it on the main thread
// during the very load it measures — and Playwright's own waiting (`locator.waitFor`) polls at 0, 20, 50, 100,
// 100, 500 ms, so what it reports is the next poll after the element came, up to 100 ms late.
const painted = (key: string) => `stoa-bench: ${key} painted`;
const shown = (key: string) => `stoa-bench: ${key} shown`;

/**
 * An init script that watches each page of a context for the first element matching `selector` and records, in
 * ms from the navigation: `window[key + 'At']` (in the DOM), `window[key + 'PaintedAt']` (after the frame that
 * painted it) and `window[key + 'ShownAt']` (its Element Timing: the frame's own time). {@link waitForShown}
 * waits for the last two.
 *
 * @example
 * await context.addInitScript(watchFirst('.wiki-view h1', 'heading'));
 */
export function watchFirst(selector: string, key: string): string {
  const sel = JSON.stringify(selector);
  return `new MutationObserver((_, o) => {
  const el = document.querySelector(${sel});
  if (el) {
    window.${key}At = performance.now();
    o.disconnect();
    // A frame callback runs just before the browser paints the element; a task queued from it runs after that paint.
    requestAnimationFrame(() => setTimeout(() => { window.${key}PaintedAt = performance.now(); console.debug('${painted(key)}'); }));
    // Marked before its first paint, so the browser reports when its text was shown.
    for (const part of [el, ...el.querySelectorAll('*')]) part.setAttribute('elementtiming', '${key}');
  }
}).observe(document, { subtree: true, childList: true });
new PerformanceObserver((list) => {
  const mine = list.getEntries().filter((e) => e.identifier === '${key}');
  if (!mine.length) return;
  for (const e of mine) window.${key}ShownAt = Math.min(window.${key}ShownAt ?? Infinity, e.renderTime || e.loadTime);
  console.debug('${shown(key)}');
}).observe({ type: 'element', buffered: true });`;
}

/** The Files page's first file row, as {@link openFiles} and `bench/web.ts` watch for it (`window.firstRowShownAt`…). */
export const FIRST_ROW = 'table.files tr[data-path]';
const watchRow = watchFirst(FIRST_ROW, 'firstRow');

/**
 * Runs `navigate` on `page` (whose context has the {@link watchFirst} script of `key`) and resolves once the page
 * has said that element was painted and shown, with the time it was shown (ms from the navigation).
 *
 * @example
 * const ms = await waitForShown(page, 'firstRow', () => page.goto(url, { waitUntil: 'commit' }));
 */
export async function waitForShown(page: Page, key: string, navigate: () => Promise<unknown>): Promise<number> {
  const seen = (line: string) =>
    new Promise<void>((done) => {
      const listener = (m: ConsoleMessage) => {
        if (m.text() !== line) return;
        page.off('console', listener);
        done();
      };
      page.on('console', listener);
    });
  const both = Promise.all([seen(painted(key)), seen(shown(key))]);
  await navigate();
  await both;
  return (await page.evaluate(`window.${key}ShownAt`)) as number;
}

/** A Files page opened until its first file row was painted and shown; the caller reads it, then closes `context`. */
interface OpenedFiles {
  context: BrowserContext;
  page: Page;
}

/**
 * Opens the Files page of `side` in a new browser context (nothing cached but the sign-in and, for a returning
 * user, the project picked last) and waits until its first file row is painted and shown. The new tab is left to
 * settle first (its processes started, see {@link chromiumIdle}), unless `settle` is false. `beforeLoad` runs on the
 * new page before the navigation (to start a trace, say). In the page: `firstRowAt`, `firstRowPaintedAt` and
 * `firstRowShownAt`, ms from navigation.
 *
 * @example
 * const { context, page } = await openFiles(browser, side, { returning: true });
 */
export async function openFiles(
  browser: Browser,
  side: SeededServer,
  opts: { returning: boolean; settle?: boolean; beforeLoad?: (page: Page) => Promise<void> },
): Promise<OpenedFiles> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), side.server.token);
  if (opts.returning) await context.addInitScript((id) => localStorage.setItem('stoa.project', id), side.project);
  await context.addInitScript(watchRow);
  const page = await context.newPage();
  // A new tab starts renderer processes (the tab's own, a spare for its next site): 0.5 s of CPU each on these
  // machines. A person opens a tab before typing the address; loading at once would time that start-up too.
  if (opts.settle !== false) await chromiumIdle();
  await opts.beforeLoad?.(page);
  await loadFiles(page, side);
  return { context, page };
}

/** CPU time (ms) Chromium's processes have used so far, from /proc (0 where there is none). */
function chromiumCpuMs(): number {
  let ms = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in ticks of 10 ms
    } catch {
      /* the process ended meanwhile */
    }
  }
  return ms;
}

/**
 * Waits until Chromium's processes have used less than a tenth of a core for 200 ms (at most 5 s): the state of a
 * browser whose new tab is open and idle.
 *
 * @example
 * const page = await context.newPage();
 * await chromiumIdle(); // then navigate
 */
export async function chromiumIdle(): Promise<void> {
  const until = Date.now() + 5000;
  let before = chromiumCpuMs();
  while (Date.now() < until) {
    await new Promise((done) => setTimeout(done, 200));
    const now = chromiumCpuMs();
    if (now - before < 20) return;
    before = now;
  }
}

/**
 * Navigates `page` (opened by {@link openFiles}) to the Files page of `side` again, as a browser that has been
 * there does: its scripts come from the cache, and a tab's renderer is already running. Waits as `openFiles` does.
 *
 * @example
 * await loadFiles(page, side);
 */
export async function loadFiles(page: Page, side: SeededServer): Promise<void> {
  await waitForShown(page, 'firstRow', () => page.goto(`${side.server.url}/files`, { waitUntil: 'commit' }));
}

/**
 * Loads the Files page of this checkout and, with `against`, of another built checkout by turns, load by load (so a
 * change in the machine's load hits both alike), and with `floor` a page that is only the row, each on its own seeded server, and returns what `load` read of
 * each visit, per side. Everything started is stopped and `work` removed before it returns.
 *
 * @example
 * const { labels, runs } = await takeTurns({ work, against: '../base', loads: 8, load: (browser, side) => … });
 */
export async function takeTurns<T>(opts: {
  work: string;
  against?: string;
  loads: number;
  /** Also load, by turns, a page that is only the row (the limit, see floorServer), last. */
  floor?: boolean;
  /** Files in the folder opened (200 by default). */
  files?: number;
  load: (browser: Browser, side: SeededServer) => Promise<T>;
}): Promise<{ labels: string[]; runs: T[][] }> {
  const sides = [{ label: 'this checkout', ...(await seededServer(join(opts.work, 'this'), undefined, opts.files)) }];
  if (opts.against) sides.push({ label: opts.against, ...(await seededServer(join(opts.work, 'other'), resolve(opts.against), opts.files)) });
  if (opts.floor) sides.push({ label: 'only the row (static page)', ...(await floorServer()) });
  const browser = await launchChromium();
  const runs: T[][] = sides.map(() => []);
  try {
    // The order turns round every load: a load right after another side's pays for what that page still does
    // (its live feed, its effects), and each side should pay it as often.
    for (let i = 0; i < opts.loads; i++) {
      const order = [...sides.entries()];
      for (const [n, side] of i % 2 ? order.reverse() : order) runs[n]!.push(await opts.load(browser, side));
    }
  } finally {
    await browser.close();
    for (const side of sides) await side.server.stop();
    rmSync(opts.work, { recursive: true, force: true });
  }
  return { labels: sides.map((s) => s.label), runs };
}
