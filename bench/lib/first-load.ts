import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { startStoa, type StoaServer } from './stoa-server.js';

/** A running server of one checkout with a project of 200 files, and that project's id. */
export interface SeededServer {
  server: StoaServer;
  /** What a returning browser remembers as the project picked last. */
  project: string;
}

/**
 * Starts the `stoa` of a checkout (`root`, this one by default) on a fresh data folder and puts 200 small files in
 * its default project: the folder the Files page benches open.
 *
 * @example
 * const side = await seededServer(join(work, 'this'));
 */
async function seededServer(dataDir: string, root?: string): Promise<SeededServer> {
  const server = await startStoa({ dataDir, root });
  const auth = { authorization: `Bearer ${server.token}` };
  for (let i = 0; i < 200; i++) {
    const path = `report-${String(i).padStart(3, '0')}.md`;
    await fetch(`${server.url}/api/v1/projects/default/files/content?path=${path}`, { method: 'PUT', headers: auth, body: `# Report ${i}\n` });
  }
  const projects = (await (await fetch(`${server.url}/api/v1/projects`, { headers: auth })).json()) as Array<{ id: string; name: string }>;
  return { server, project: projects.find((p) => p.name === 'default')!.id };
}

/** Debian's Chromium, headless, without the background work a first run would add. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
}

// Plain strings, not functions: tsx would add helpers to a function's text that the page does not have.
// The page says on its console when the row is painted and shown: the driver waits for those lines instead of
// polling the page, which would load the driver's own script into the page and run it on the main thread
// during the very load it measures.
const PAINTED = 'stoa-bench: first row painted';
const SHOWN = 'stoa-bench: first row shown';
const watchRow = `new MutationObserver((_, o) => {
  if (document.querySelector('table.files tr[data-path]')) {
    window.firstRowAt = performance.now();
    o.disconnect();
    // A frame callback runs just before the browser paints the row; a task queued from it runs after that paint.
    requestAnimationFrame(() => setTimeout(() => { window.firstRowPaintedAt = performance.now(); console.debug('${PAINTED}'); }));
    // Marked before its first paint, so the browser reports when the row's text was shown.
    for (const el of document.querySelector('table.files tr[data-path]').querySelectorAll('*')) el.setAttribute('elementtiming', 'row');
  }
}).observe(document, { subtree: true, childList: true });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.firstRowShownAt = Math.min(window.firstRowShownAt ?? Infinity, e.renderTime || e.loadTime);
  console.debug('${SHOWN}');
}).observe({ type: 'element', buffered: true });`;

/** A Files page opened until its first file row was painted and shown; the caller reads it, then closes `context`. */
interface OpenedFiles {
  context: BrowserContext;
  page: Page;
}

/**
 * Opens the Files page of `side` in a new browser context (nothing cached but the sign-in and, for a returning
 * user, the project picked last) and waits until its first file row is painted and shown. `beforeLoad` runs on the
 * new page before the navigation (to start a trace, say). In the page: `firstRowAt`, `firstRowPaintedAt` and
 * `firstRowShownAt`, ms from navigation.
 *
 * @example
 * const { context, page } = await openFiles(browser, side, { returning: true });
 */
export async function openFiles(
  browser: Browser,
  side: SeededServer,
  opts: { returning: boolean; beforeLoad?: (page: Page) => Promise<void> },
): Promise<OpenedFiles> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), side.server.token);
  if (opts.returning) await context.addInitScript((id) => localStorage.setItem('stoa.project', id), side.project);
  await context.addInitScript(watchRow);
  const page = await context.newPage();
  await opts.beforeLoad?.(page);
  await loadFiles(page, side);
  return { context, page };
}

/**
 * Navigates `page` (opened by {@link openFiles}) to the Files page of `side` again, as a browser that has been
 * there does: its scripts come from the cache, and a tab's renderer is already running. Waits as `openFiles` does.
 *
 * @example
 * await loadFiles(page, side);
 */
export async function loadFiles(page: Page, side: SeededServer): Promise<void> {
  const seen = (line: string) =>
    new Promise<void>((done) => {
      const listener = (m: ConsoleMessage) => {
        if (m.text() !== line) return;
        page.off('console', listener);
        done();
      };
      page.on('console', listener);
    });
  const both = Promise.all([seen(PAINTED), seen(SHOWN)]);
  await page.goto(`${side.server.url}/files`, { waitUntil: 'commit' });
  await both;
}

/**
 * Loads the Files page of this checkout and, with `against`, of another built checkout by turns, load by load (so a
 * change in the machine's load hits both alike), each on its own seeded server, and returns what `load` read of
 * each visit, per side. Everything started is stopped and `work` removed before it returns.
 *
 * @example
 * const { labels, runs } = await takeTurns({ work, against: '../base', loads: 8, load: (browser, side) => … });
 */
export async function takeTurns<T>(opts: {
  work: string;
  against?: string;
  loads: number;
  load: (browser: Browser, side: SeededServer) => Promise<T>;
}): Promise<{ labels: string[]; runs: T[][] }> {
  const sides = [{ label: 'this checkout', ...(await seededServer(join(opts.work, 'this'))) }];
  if (opts.against) sides.push({ label: opts.against, ...(await seededServer(join(opts.work, 'other'), resolve(opts.against))) });
  const browser = await launchChromium();
  const runs: T[][] = sides.map(() => []);
  try {
    for (let i = 0; i < opts.loads; i++) for (const [n, side] of sides.entries()) runs[n]!.push(await opts.load(browser, side));
  } finally {
    await browser.close();
    for (const side of sides) await side.server.stop();
    rmSync(opts.work, { recursive: true, force: true });
  }
  return { labels: sides.map((s) => s.label), runs };
}
