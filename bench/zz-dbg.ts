import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startStoa } from './lib/stoa-server.js';
const work = mkdtempSync(join(tmpdir(), 'stoa-dbg-'));
const server = await startStoa({ dataDir: join(work, 'data'), root: process.env.ROOT });
for (let i = 0; i < 200; i++) await fetch(`${server.url}/api/v1/projects/default/files/content?path=report-${i}.md`, { method: 'PUT', headers: { authorization: `Bearer ${server.token}` }, body: `# R ${i}\n` });
const projects = (await (await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: `Bearer ${server.token}` } })).json()) as Array<{ id: string; name: string }>;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (let round = 0; round < 3; round++) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((token) => localStorage.setItem('stoa.token', token), server.token);
  await context.addInitScript((id) => localStorage.setItem('stoa.project', id), projects[0]!.id);
  await context.addInitScript(`window.seen = []; new MutationObserver(() => { for (const [n, sel] of [['boot', '.boot'], ['nav', 'nav, header'], ['skeleton', '.load-state, [aria-busy=true]'], ['table', 'table.files'], ['row', 'table.files tr[data-path]']]) if (!window.seen.some(s => s.startsWith(n + ' ')) && document.querySelector(sel)) window.seen.push(n + ' ' + Math.round(performance.now())); }).observe(document, { subtree: true, childList: true, attributes: true });`);
  const page = await context.newPage();
  page.on('console', (m) => console.log('console:', m.text()));
  await page.goto(`${server.url}/files`, { waitUntil: 'commit' });
  await page.locator('table.files tr[data-path]').first().waitFor();
  console.log(await page.evaluate(`window.seen.join(', ') + ' | ' + performance.getEntriesByType('resource').filter(e => e.name.includes('/api/')).map(e => e.name.split('/').pop().slice(0, 12) + ' ' + Math.round(e.responseEnd)).join(', ')`));
  await context.close();
}
await browser.close(); await server.stop();
