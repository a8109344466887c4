/**
 * The web UI in a real Chromium (issue 13, "Fast"; issues 30 and 31: large folders): time to the first file row of
 * a folder of 20 and of 5,000 files, cold (a fresh browser context: nothing cached) and warm (the same context
 * again), and to a rendered wiki page; the bytes the browser transferred on a first visit and on a repeat visit,
 * against the same assets uncompressed. The floor for the times is a static HTML page that is only one file row,
 * served by the same server (the web root's static files) to the same browser, cold and warm alike: what the
 * browser and the loopback cost before any of Stoa's JavaScript runs. Each time is read in the page: from the
 * navigation to the frame that showed the row (its Element Timing), as `bench/web-timeline.ts` reads it — not from
 * Playwright's waiting, which polls at growing intervals and reports up to 100 ms late.
 *
 *   npm run build:web && npm run build && node --import tsx bench/web.ts [--rounds 5]
 */
import { mkdtempSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { reportAims, type Aim } from './lib/aims.js';
import { chromiumIdle, FIRST_ROW, waitForShown, watchFirst } from './lib/first-load.js';
import { percentile } from './lib/stats.js';
import { REPO_ROOT, startStoa } from './lib/stoa-server.js';

const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 5;
/** `--no-service-worker`: browser contexts that never start the UI's service worker (what it costs a load). */
const NO_SW = process.argv.includes('--no-service-worker');
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-web-'));
// The floor page must exist before the server starts: the web root's files are routed when it starts.
const FLOOR_FILE = join(REPO_ROOT, 'apps/web/dist/bench-floor.html');
writeFileSync(
  FLOOR_FILE,
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stoa</title></head><body><table class="files"><tbody><tr data-path="folder-20/report-0000.md"><td>report-0000.md</td></tr></tbody></table></body></html>',
);
const server = await startStoa({ dataDir: join(work, 'data') });
const auth = { authorization: `Bearer ${server.token}` };

// Folders of 20 and of 5,000 files, and a wiki page with a table, as a team would have them.
const SIZES = [20, 5000] as const;
async function put(path: string, body: string): Promise<void> {
  await fetch(`${server.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(path)}`, { method: 'PUT', headers: auth, body });
}
for (const n of SIZES) {
  const names = Array.from({ length: n }, (_, i) => `folder-${n}/report-${String(i).padStart(4, '0')}.md`);
  // Eight at a time: seeding 5,000 files one by one takes minutes on this machine.
  for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map((p, j) => put(p, `# Report ${i + j}\n`)));
}
const table = ['| quarter | revenue |', '| --- | --- |', ...Array.from({ length: 20 }, (_, i) => `| Q${i} | ${i * 1000} |`)].join('\n');
await fetch(`${server.url}/api/v1/projects/default/wiki/page`, {
  method: 'PUT',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ path: 'handbook/finance', title: 'Finance', text: `Our numbers.\n\n${table}\n` }),
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});

/** Bytes on the wire (headers and bodies) of every response a page received, from the DevTools protocol. */
async function meter(page: Page, context: BrowserContext): Promise<() => number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => (bytes += e.encodedDataLength));
  return () => bytes;
}

/**
 * One visit: ms from the navigation to the frame that showed the element `key` watches (its Element Timing, read
 * in the page, see `watchFirst`), and the bytes transferred.
 */
async function visit(context: BrowserContext, url: string, key: string): Promise<{ ms: number; bytes: number }> {
  const page = await context.newPage();
  const bytes = await meter(page, context);
  // A tab that has started, as a person's has before they type the address (see bench/lib/first-load.ts).
  await chromiumIdle();
  const ms = await waitForShown(page, key, () => page.goto(url, { waitUntil: 'commit' }));
  await page.waitForLoadState('networkidle');
  const b = bytes();
  await page.close();
  return { ms, bytes: b };
}

async function signedInContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: NO_SW ? 'block' : 'allow' });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), server.token);
  await context.addInitScript(watchFirst(FIRST_ROW, 'firstRow'));
  await context.addInitScript(watchFirst('.wiki-view h1', 'heading'));
  return context;
}

const results: Record<string, number[]> = { wiki: [], firstBytes: [], repeatBytes: [] };
const add = (k: string, v: number) => (results[k] ??= []).push(v);
for (let r = 0; r < ROUNDS; r++) {
  // Each kind of page cold (a new context: nothing cached) and then warm (the same context, scripts cached).
  for (const what of ['floor', ...SIZES.map(String)]) {
    const context = await signedInContext();
    const url = what === 'floor' ? `${server.url}/bench-floor.html` : `${server.url}/files/folder-${what}`;
    const cold = await visit(context, url, 'firstRow');
    const warm = await visit(context, url, 'firstRow');
    add(`${what} cold`, cold.ms);
    add(`${what} warm`, warm.ms);
    if (what === '20') {
      results.firstBytes!.push(cold.bytes);
      results.repeatBytes!.push(warm.bytes);
      results.wiki!.push((await visit(context, `${server.url}/wiki/handbook/finance`, 'heading')).ms);
    }
    await context.close();
  }
}

await browser.close();
await server.stop();
rmSync(work, { recursive: true, force: true });
rmSync(FLOOR_FILE, { force: true });

const assets = join(REPO_ROOT, 'apps/web/dist/assets');
const raw = readdirSync(assets)
  .filter((n) => /\.(js|css)$/.test(n))
  .reduce((sum, n) => sum + statSync(join(assets, n)).size, 0);
const med = (xs: number[]) => percentile(xs, 50);
console.log(
  `\n${ROUNDS} rounds, medians; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
console.log('| first file row | cold (new context) | warm (same context) | the static one-row page, cold / warm | Stoa ÷ floor, cold / warm |');
console.log('| --- | --- | --- | --- | --- |');
for (const n of SIZES) {
  const [c, w, fc, fw] = [med(results[`${n} cold`]!), med(results[`${n} warm`]!), med(results['floor cold']!), med(results['floor warm']!)];
  console.log(
    `| folder of ${n.toLocaleString('en')} files | ${c.toFixed(0)} ms | ${w.toFixed(0)} ms | ${fc.toFixed(0)} / ${fw.toFixed(0)} ms | ${(c / fc).toFixed(1)}× / ${(w / fw).toFixed(1)}× |`,
  );
}
// Issue 30 item 3: the first file row under 500 ms in a new browser context, 200 ms in one that has been here.
reportAims(
  SIZES.flatMap(
    (n) =>
      [
        {
          aim: `web: first file row, folder of ${n.toLocaleString('en')} files, cold`,
          value: med(results[`${n} cold`]!),
          line: 500,
          unit: 'ms',
          better: 'lower',
          strict: true,
          note: `Chromium, median of ${ROUNDS}`,
        },
        {
          aim: `web: first file row, folder of ${n.toLocaleString('en')} files, warm`,
          value: med(results[`${n} warm`]!),
          line: 200,
          unit: 'ms',
          better: 'lower',
          note: `Chromium, median of ${ROUNDS}`,
        },
      ] satisfies Aim[],
  ),
);
console.log('\n| what | value | reference | ratio |');
console.log('| --- | --- | --- | --- |');
console.log(
  `| rendered wiki page (table), warm browser | ${med(results.wiki!).toFixed(0)} ms | the static one-row page, warm, ${med(results['floor warm']!).toFixed(0)} ms | ${(med(results.wiki!) / med(results['floor warm']!)).toFixed(1)}× |`,
);
console.log(
  `| bytes, first visit of the 20-file folder (HTML, JS, CSS, API) | ${(med(results.firstBytes!) / 1024).toFixed(1)} kB | the JS and CSS uncompressed, ${(raw / 1024).toFixed(1)} kB | ${(med(results.firstBytes!) / raw).toFixed(2)}× |`,
);
console.log(
  `| bytes, repeat visit | ${(med(results.repeatBytes!) / 1024).toFixed(1)} kB | first visit | ${(med(results.repeatBytes!) / med(results.firstBytes!)).toFixed(2)}× |`,
);
