/**
 * The web UI in a real Chromium (issue 13, "Fast"): time to the first file row and to a rendered wiki page, and
 * the bytes the browser transferred on a first visit and on a repeat visit, against the same assets
 * uncompressed. A tiny static page served by the same server is the floor for the times: what the browser and the
 * loopback cost before any of Stoa's JavaScript runs.
 *
 *   npm run build:web && npm run build && node --import tsx bench/web.ts [--rounds 5]
 */
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumIdle } from './lib/first-load.js';
import { percentile } from './lib/stats.js';
import { REPO_ROOT, startStoa } from './lib/stoa-server.js';

const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 5;
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-web-'));
const server = await startStoa({ dataDir: join(work, 'data') });
const auth = { authorization: `Bearer ${server.token}` };

// A folder of 200 files and a wiki page with a table, as a team would have them.
for (let i = 0; i < 200; i++) {
  const path = `report-${String(i).padStart(3, '0')}.md`;
  await fetch(`${server.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(path)}`, {
    method: 'PUT',
    headers: auth,
    body: `# Report ${i}\n`,
  });
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

/** One visit: ms from navigation to `ready` being visible, and the bytes transferred. */
async function visit(context: BrowserContext, url: string, ready: string): Promise<{ ms: number; bytes: number }> {
  const page = await context.newPage();
  const bytes = await meter(page, context);
  // A tab that has started, as a person's has before they type the address (see bench/lib/first-load.ts).
  await chromiumIdle();
  const t = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(ready).first().waitFor();
  const ms = performance.now() - t;
  await page.waitForLoadState('networkidle');
  const b = bytes();
  await page.close();
  return { ms, bytes: b };
}

async function signedInContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), server.token);
  return context;
}

const results = { firstRow: [] as number[], wiki: [] as number[], floor: [] as number[], firstBytes: [] as number[], repeatBytes: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  const context = await signedInContext();
  // The floor: the server's answer for a route the UI does not know is index.html; its bare HTML with no script
  // run is the least a page can cost. A data: page would skip the loopback, so the floor is fetched as text.
  const floorPage = await context.newPage();
  await chromiumIdle();
  const tf = performance.now();
  await floorPage.goto(`${server.url}/api/v1/health`);
  results.floor.push(performance.now() - tf);
  await floorPage.close();

  const first = await visit(context, `${server.url}/files`, 'table.files tr[data-path]');
  results.firstRow.push(first.ms);
  results.firstBytes.push(first.bytes);
  const repeat = await visit(context, `${server.url}/files`, 'table.files tr[data-path]');
  results.repeatBytes.push(repeat.bytes);
  const wiki = await visit(context, `${server.url}/wiki/handbook/finance`, '.wiki-view h1');
  results.wiki.push(wiki.ms);
  await context.close();
}

await browser.close();
await server.stop();
rmSync(work, { recursive: true, force: true });

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
console.log('| what | value | reference | ratio |');
console.log('| --- | --- | --- | --- |');
console.log(
  `| first file row of a 200-file project, fresh browser | ${med(results.firstRow).toFixed(0)} ms | a JSON answer from the same server, ${med(results.floor).toFixed(0)} ms | ${(med(results.floor) / med(results.firstRow)).toFixed(2)}× |`,
);
console.log(
  `| rendered wiki page (table), warm browser | ${med(results.wiki).toFixed(0)} ms | same | ${(med(results.floor) / med(results.wiki)).toFixed(2)}× |`,
);
console.log(
  `| bytes, first visit (HTML, JS, CSS, API) | ${(med(results.firstBytes) / 1024).toFixed(1)} kB | the JS and CSS uncompressed, ${(raw / 1024).toFixed(1)} kB | ${(med(results.firstBytes) / raw).toFixed(2)}× |`,
);
console.log(
  `| bytes, repeat visit | ${(med(results.repeatBytes) / 1024).toFixed(1)} kB | first visit | ${(med(results.repeatBytes) / med(results.firstBytes)).toFixed(2)}× |`,
);
