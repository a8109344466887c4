import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startStoa } from './lib/stoa-server.js';
const work = mkdtempSync(join(tmpdir(), 'stoa-trace-'));
const server = await startStoa({ dataDir: join(work, 'data') });
const auth = { authorization: `Bearer ${server.token}` };
for (let i = 0; i < 200; i++) await fetch(`${server.url}/api/v1/projects/default/files/content?path=r${i}.md`, { method: 'PUT', headers: auth, body: 'x' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (let r = 0; r < 3; r++) {
  const context = await browser.newContext();
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), server.token);
  await context.addInitScript(() => { new MutationObserver((_, o) => { if (document.querySelector('table.files tr[data-path]')) { (window as any).__row = performance.now(); o.disconnect(); } }).observe(document, { subtree: true, childList: true }); });
  const page = await context.newPage();
  const t0 = performance.now();
  const log: string[] = [];
  page.on('request', (q) => log.push(`${(performance.now() - t0).toFixed(0)} > ${q.url().replace(server.url, '')}`));
  page.on('requestfinished', (q) => log.push(`${(performance.now() - t0).toFixed(0)} < ${q.url().replace(server.url, '')}`));
  await page.goto(`${server.url}/files`, { waitUntil: 'commit' });
  await page.locator('table.files tr[data-path]').first().waitFor();
  log.push(`${(performance.now() - t0).toFixed(0)} ROW`);
  log.push('inpage row at ' + (await page.evaluate(() => (window as any).__row)).toFixed(0) + ' folder end ' + (await page.evaluate(() => JSON.stringify(performance.getEntriesByType('resource').map((e: any) => [e.name.split('/').pop().slice(0, 30), Math.round(e.startTime), Math.round(e.responseEnd)])))));
  await page.waitForLoadState('networkidle');
  console.log(log.join('\n'), '\n---');
  await context.close();
}
await browser.close(); await server.stop();
