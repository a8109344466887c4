/**
 * The first load of the Files page, step by step, in a real Chromium (issue 13): when the scripts arrived, when
 * `me` and the folder were asked for, when the folder's answer came, when the first file row entered the DOM, and
 * the API bytes on the wire. Read in the page (Resource Timing and a MutationObserver), so the driver's own
 * polling is not counted. Medians of the loads, ms from navigation.
 *
 *   npm run build:web && npm run build && node --import tsx bench/web-timeline.ts [--loads 5] [--returning]
 *
 * `--returning` loads as a returning user: the browser remembers the project picked last (as the UI does), so the
 * folder can be asked for beside the projects. Without it, the browser holds only the sign-in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { percentile } from './lib/stats.js';
import { startStoa } from './lib/stoa-server.js';

const loadsAt = process.argv.indexOf('--loads');
const LOADS = loadsAt >= 0 ? Number(process.argv[loadsAt + 1]) : 5;
const RETURNING = process.argv.includes('--returning');
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-timeline-'));
const server = await startStoa({ dataDir: join(work, 'data') });
for (let i = 0; i < 200; i++) {
  const path = `report-${String(i).padStart(3, '0')}.md`;
  await fetch(`${server.url}/api/v1/projects/default/files/content?path=${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${server.token}` },
    body: `# Report ${i}\n`,
  });
}
const projects = (await (await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: `Bearer ${server.token}` } })).json()) as Array<{
  id: string;
  name: string;
}>;
const remembered = projects.find((p) => p.name === 'default')!.id;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});

// Plain strings, not functions: tsx would add helpers to a function's text that the page does not have.
const watchRow = `new MutationObserver((_, o) => {
  if (document.querySelector('table.files tr[data-path]')) {
    window.firstRowAt = performance.now();
    o.disconnect();
    // A frame callback runs just before the browser paints the row; a task queued from it runs after that paint.
    requestAnimationFrame(() => setTimeout(() => { window.firstRowPaintedAt = performance.now(); }));
  }
}).observe(document, { subtree: true, childList: true });`;
const readSteps = `(() => {
  const all = performance.getEntriesByType('resource');
  const js = all.filter((e) => e.name.endsWith('.js'));
  const one = (part) => all.find((e) => e.name.includes(part));
  return {
    scripts: Math.max(...js.map((e) => e.responseEnd)),
    me: one('/api/v1/me').startTime,
    projectsIn: one('/api/v1/projects').responseEnd,
    folderAsked: one('/folders?').startTime,
    folderIn: one('/folders?').responseEnd,
    firstRow: window.firstRowAt,
    painted: window.firstRowPaintedAt,
    apiRequests: all.filter((e) => e.name.includes('/api/')).length,
    apiBytes: all.filter((e) => e.name.includes('/api/')).reduce((n, e) => n + e.transferSize, 0),
  };
})()`;

type Steps = Record<'scripts' | 'me' | 'projectsIn' | 'folderAsked' | 'folderIn' | 'firstRow' | 'painted' | 'apiRequests' | 'apiBytes', number>;
const runs: Steps[] = [];
for (let i = 0; i < LOADS; i++) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), server.token);
  if (RETURNING) await context.addInitScript((id) => localStorage.setItem('stoa.project', id), remembered);
  await context.addInitScript(watchRow);
  const page = await context.newPage();
  await page.goto(`${server.url}/files`, { waitUntil: 'commit' });
  await page.locator('table.files tr[data-path]').first().waitFor();
  await page.waitForFunction('window.firstRowPaintedAt !== undefined');
  runs.push((await page.evaluate(readSteps)) as Steps);
  await context.close();
}
await browser.close();
await server.stop();
rmSync(work, { recursive: true, force: true });

const med = (k: keyof Steps) =>
  percentile(
    runs.map((r) => r[k]),
    50,
  );
console.log(
  `\n${LOADS} loads${RETURNING ? ' (returning user)' : ''}, medians, ms from navigation; load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}\n`,
);
console.log('| step | ms |');
console.log('| --- | --- |');
for (const [k, label] of [
  ['scripts', 'scripts arrived'],
  ['me', '`me` and `projects` asked'],
  ['projectsIn', "the projects' answer in"],
  ['folderAsked', 'the folder asked'],
  ['folderIn', "the folder's answer in"],
  ['firstRow', 'first file row in the DOM'],
  ['painted', 'first file row painted'],
] as const)
  console.log(`| ${label} | ${med(k).toFixed(0)} |`);
console.log(`| API requests | ${med('apiRequests')} |`);
console.log(`| API bytes on the wire | ${(med('apiBytes') / 1024).toFixed(1)} kB |`);
