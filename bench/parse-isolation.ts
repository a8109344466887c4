/**
 * Parsing that cannot hurt the server (issue 9): p99 of a small GET while hostile files are parsed, against the
 * same p99 at rest, on one `stoa serve` process (SQLite, local disk).
 *
 *   node --import tsx bench/parse-isolation.ts [--gets 2000] [--clients 4] [--json out.json]
 *
 * Scenarios, each measured over the same number of GETs of a 4 KB file by `--clients` keep-alive clients:
 * - rest: nothing else happens;
 * - pdf page tree: a 20,000-page PDF is being parsed (the page cap is lifted so the parser really walks it;
 *   its worker stays busy for the whole window and is ended by the time cap, 30 s, afterwards);
 * - docx bombs: 1 GB DOCX zip bombs are sent to understanding back to back (each refused by the unpacking caps).
 * Reported: p50/p99 in ms, the p99 as a ratio to rest (aim: under 2×), and the server's peak resident memory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDocxBomb, makePdfPageTree } from '../packages/core/src/understanding/test-documents.js';
import { httpJson, httpRequest, keepAliveAgent } from './lib/http-client.js';
import { peakRssBytes } from './lib/rss.js';
import { fmt, ratio, summarize, type Summary } from './lib/stats.js';
import { startStoa } from './lib/stoa-server.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const GETS = Number(arg('--gets', '2000'));
const CLIENTS = Number(arg('--clients', '4'));
const JSON_OUT = process.argv.includes('--json') ? arg('--json', '') : null;

const dataDir = mkdtempSync(join(tmpdir(), 'stoa-bench-parse-'));
const server = await startStoa({
  dataDir,
  env: { STOA_PARSE_MAX_PAGES: '100000', STOA_PARSE_TIMEOUT_MS: '30000', STOA_PARSE_MAX_ATTEMPTS: '1' },
});
const agent = keepAliveAgent(CLIENTS + 2);
const headers = { authorization: `Bearer ${server.token}` };
const api = (p: string) => `${server.url}/api/v1/projects/default${p}`;
const put = (path: string, body: Buffer) => httpJson(api(`/files/content?path=${encodeURIComponent(path)}`), { method: 'PUT', headers, body, agent });
const understand = (path: string) =>
  httpRequest(api('/docs/understand'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ path })), agent, collect: true });
const status = async (path: string) => JSON.parse((await httpRequest(api(`/docs/status?path=${encodeURIComponent(path)}`), { method: 'GET', headers, agent, collect: true })).body!.toString());

/** `GETS` GETs of the small file by `CLIENTS` clients; latencies in ms. */
async function measureGets(): Promise<Summary> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < GETS) {
      next++;
      const t0 = performance.now();
      const r = await httpRequest(api('/files/content?path=small.txt'), { method: 'GET', headers, agent });
      if (r.status !== 200) throw new Error(`GET answered ${r.status}`);
      latencies.push(performance.now() - t0);
    }
  }));
  return summarize(latencies, performance.now() - started);
}

const results: Array<{ scenario: string; s: Summary; note: string }> = [];
try {
  await put('small.txt', Buffer.alloc(4096, 'x'));
  await put('pages.pdf', makePdfPageTree(20_000));
  await put('bomb.docx', makeDocxBomb(1024));
  // Warm-up (not measured): the connection pool, and a first parse so a parser worker is running.
  await measureGets();
  await understand('bomb.docx');

  results.push({ scenario: 'rest', s: await measureGets(), note: '' });

  const pdf = understand('pages.pdf');
  const during = await measureGets();
  const st = await status('pages.pdf');
  results.push({ scenario: 'pdf page tree being parsed', s: during, note: st.status === 'pending' ? 'parse still running at the end' : `parse ended: ${st.errorCode ?? st.status}` });

  let bombs = 0;
  let stop = false;
  const sender = (async () => {
    await pdf; // the PDF's worker must be free first (one worker by default)
    while (!stop) {
      const r = await understand('bomb.docx');
      if (r.status !== 200 || JSON.parse(r.body!.toString()).errorCode !== 'too_large') throw new Error('bomb was not refused');
      bombs++;
    }
  })();
  await pdf;
  const bombRun = await measureGets();
  stop = true;
  await sender;
  results.push({ scenario: 'docx bombs back to back', s: bombRun, note: `${bombs} bombs refused during the window` });

  const rest = results[0]!.s.p99;
  const peak = peakRssBytes(server.pid);
  const lines = [
    `GETs of a 4 KB file: ${GETS} per scenario, ${CLIENTS} clients. Server peak RSS: ${peak ? fmt(peak / 2 ** 20, 0) : '–'} MB.`,
    '',
    '| scenario | GET/s | p50 ms | p99 ms | p99 vs rest | note |',
    '|---|---:|---:|---:|---:|---|',
    ...results.map((r) => `| ${r.scenario} | ${fmt(r.s.opsPerSec, 0)} | ${fmt(r.s.p50, 2)} | ${fmt(r.s.p99, 2)} | ${ratio(r.s.p99, rest)} | ${r.note} |`),
  ];
  console.log(lines.join('\n'));
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ gets: GETS, clients: CLIENTS, peakRss: peak, results }, null, 2));
} finally {
  await server.stop();
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
