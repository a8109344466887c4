/**
 * No request can stop the others (issue 27): each attack of the issue runs against one `stoa serve` process while
 * a prober sends a small GET (a 4 KB file) every 100 ms on its own connection. Reported per attack: how the
 * attack was answered, the prober's p99 and max during the attack against the same at rest (aim: max under 1 s,
 * p99 within 2×), and the server's resident memory before and after.
 *
 *   node --import tsx bench/attacks.ts [--seconds 8] [--pg] [--only glob] [--json out.json]
 *
 * Attacks (each repeated back to back for `--seconds`, or run once when one takes longer):
 * - nested JSON: 4 MB of `[[[[…` posted to the public login route, without a token;
 * - nested JSON-RPC: the same at /mcp;
 * - glob: `**\/*a*a*a*a*a*a*a*a*a*a*a*a*b` over 200 files with 200-character names (agent tool `glob`);
 * - heading: a wiki import whose first heading holds 400,000 spaces;
 * - long query: a 4 MB search query through the agent tool `search`, and a 10,500-character one by GET;
 * - PDF bombs: a 1 MB PDF whose content stream inflates to 1 GB (Flate), and a 0.4 MB one through LZW, sent to
 *   understanding;
 * - many links: a page with 20,000 `[[links]]` saved and read.
 * With `--pg` the server runs on PostgreSQL (a database created for the run and dropped afterwards).
 */
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTestDb } from '@stoa/db/testing';
import { makePdfFlateBomb, makePdfLzwBomb } from '../packages/core/src/understanding/test-documents.js';
import { httpJson, httpRequest, keepAliveAgent } from './lib/http-client.js';
import { currentRssBytes } from './lib/rss.js';
import { fmt, ratio, summarize } from './lib/stats.js';
import { startStoa } from './lib/stoa-server.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const SECONDS = Number(arg('--seconds', '8'));
const KIND: 'sqlite' | 'postgres' = process.argv.includes('--pg') ? 'postgres' : 'sqlite';
const JSON_OUT = process.argv.includes('--json') ? arg('--json', '') : null;
const PROBE_EVERY_MS = 100;
/** Only the attacks whose name contains this (e.g. `--only glob`). */
const ONLY = process.argv.includes('--only') ? arg('--only', '') : '';

const db = await createTestDb(KIND);
await db.db.close();
const dataDir = KIND === 'sqlite' ? dirname(db.file!) : mkdtempSync(join(tmpdir(), 'stoa-bench-attacks-'));
const server = await startStoa({ dataDir, env: KIND === 'postgres' ? { STOA_DATABASE_URL: db.url! } : {} });
const headers = { authorization: `Bearer ${server.token}` };
const agent = keepAliveAgent(4);
const api = (p: string) => `${server.url}/api/v1/projects/default${p}`;
const put = (path: string, body: Buffer) => httpJson(api(`/files/content?path=${encodeURIComponent(path)}`), { method: 'PUT', headers, body, agent });
const post = (url: string, body: string | Buffer, auth = true) =>
  httpRequest(url, {
    method: 'POST',
    headers: { ...(auth ? headers : {}), 'content-type': 'application/json' },
    body: Buffer.from(body),
    agent,
    collect: true,
  });
const tool = (name: string, args: unknown) => post(api(`/tools/${name}/call`), JSON.stringify({ arguments: args }));

/**
 * The prober, in a thread of its own so the bench's own work (building and sending attacks) cannot delay it: a
 * small GET every PROBE_EVERY_MS, each on schedule whether or not the last one answered.
 */
const PROBER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let latencies = [];
let inFlight = 0;
let stopping = false;
const finish = () => { if (stopping && inFlight === 0) { parentPort.postMessage(latencies); latencies = []; stopping = false; } };
let timer = null;
parentPort.on('message', (m) => {
  if (m === 'start') {
    timer = setInterval(() => {
      const t0 = performance.now();
      inFlight++;
      http.get(workerData.url, { headers: workerData.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => { if (res.statusCode === 200) latencies.push(performance.now() - t0); else latencies.push(NaN); inFlight--; finish(); });
      }).on('error', () => { latencies.push(NaN); inFlight--; finish(); });
    }, workerData.every);
  } else if (m === 'stop') { clearInterval(timer); stopping = true; finish(); }
});
`;
const prober = new Worker(PROBER, { eval: true, workerData: { url: api('/files/content?path=small.txt'), headers, every: PROBE_EVERY_MS } });

function startProber(): { stop: () => Promise<number[]> } {
  prober.postMessage('start');
  return {
    stop: () =>
      new Promise<number[]>((resolve) => {
        prober.once('message', (latencies: number[]) => {
          if (latencies.some((l) => Number.isNaN(l))) throw new Error('a probe was not answered 200');
          resolve(latencies);
        });
        prober.postMessage('stop');
      }),
  };
}

interface Attack {
  name: string;
  /** One attempt; resolves with the status of each request it made. */
  run: () => Promise<number[]>;
}

// Every payload is built once, before any window, so building it costs no window anything.
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const fourMb = 2 * 1024 * 1024;
const nestedLogin = Buffer.from(`{"code":${nested(fourMb)}}`);
const nestedRpc = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${nested(fourMb)}}`);
const spacesImport = Buffer.from(JSON.stringify({ files: [{ file: 'spaces.md', text: `# ${' '.repeat(400_000)}x${' '.repeat(400_000)}\nbody` }] }));
const longQuery = Buffer.from(JSON.stringify({ arguments: { query: 'refund policy '.repeat(300_000) } }));
const manyLinks = Buffer.from(JSON.stringify({ path: 'many-links', text: Array.from({ length: 20_000 }, (_, i) => `[[to/p${i}]]`).join(' ') }));
const attacks: Attack[] = [
  { name: 'nested JSON, no token (4 MB)', run: async () => [(await post(`${server.url}/api/v1/auth/login`, nestedLogin, false)).status] },
  { name: 'nested JSON-RPC at /mcp (4 MB)', run: async () => [(await post(`${server.url}/mcp`, nestedRpc, false)).status] },
  { name: 'glob over 200-character names', run: async () => [(await tool('glob', { pattern: '**/*a*a*a*a*a*a*a*a*a*a*a*a*b', prefix: 'long' })).status] },
  { name: 'wiki import, heading of 400,000 spaces', run: async () => [(await post(api('/wiki/import'), spacesImport)).status] },
  {
    name: 'search, 4 MB query (tool) and 10,500 chars (GET)',
    run: async () => [
      (await post(api('/tools/search/call'), longQuery)).status,
      (await httpRequest(api(`/search?q=${'refund%20'.repeat(1500)}`), { method: 'GET', headers, agent })).status,
    ],
  },
  { name: 'PDF bomb, 1 GB content stream (Flate)', run: async () => [(await post(api('/docs/understand'), JSON.stringify({ path: 'bomb.pdf' }))).status] },
  { name: 'PDF bomb, 1 GB content stream (LZW)', run: async () => [(await post(api('/docs/understand'), JSON.stringify({ path: 'lzw-bomb.pdf' }))).status] },
  {
    name: 'page with 20,000 [[links]], saved and read',
    run: async () => {
      const saved = await httpRequest(api('/wiki/page'), {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: manyLinks,
        agent,
      });
      const read = await httpRequest(api('/wiki/page?path=many-links'), { method: 'GET', headers, agent });
      return [saved.status, read.status];
    },
  },
];

interface Row {
  name: string;
  answers: string;
  probes: number;
  p99: number;
  max: number;
  rssBefore: number;
  rssAfter: number;
}

const mb = (b: number | null) => (b === null ? Number.NaN : b / 2 ** 20);

/** Runs `attempt` back to back for SECONDS (at least once) beside the prober. */
async function window(name: string, attempt: (() => Promise<number[]>) | null): Promise<Row> {
  const rssBefore = mb(currentRssBytes(server.pid));
  const prober = startProber();
  const statuses = new Map<number, number>();
  const until = performance.now() + SECONDS * 1000;
  if (attempt) {
    do for (const s of await attempt()) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    while (performance.now() < until);
  } else await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const latencies = await prober.stop();
  const s = summarize(latencies, SECONDS * 1000);
  const answers = [...statuses].map(([status, n]) => `${n}× ${status}`).join(', ') || '–';
  return { name, answers, probes: s.ops, p99: s.p99, max: s.max, rssBefore, rssAfter: mb(currentRssBytes(server.pid)) };
}

try {
  await put('small.txt', Buffer.alloc(4096, 'x'));
  for (let i = 0; i < 200; i++) await put(`long/${'a'.repeat(200)}${i}.txt`, Buffer.from('x'));
  await put('bomb.pdf', makePdfFlateBomb(1024));
  await put('lzw-bomb.pdf', makePdfLzwBomb(1024));
  // Warm-up (not measured): connections, the first parse (a parser worker starts), the search index.
  await window('warm-up', async () => [(await tool('glob', { pattern: '*.txt' })).status]);
  const rows: Row[] = [await window('at rest', null)];
  for (const a of attacks.filter((x) => x.name.includes(ONLY))) rows.push(await window(a.name, a.run));
  rows.push(await window('at rest, after', null));
  const rest = rows[0]!;
  const lines = [
    `${KIND}; a GET of a 4 KB file every ${PROBE_EVERY_MS} ms; each window ${SECONDS} s.`,
    '',
    '| window | answers | probes | p99 ms | max ms | p99 vs rest | RSS before → after MB |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.answers} | ${r.probes} | ${fmt(r.p99, 1)} | ${fmt(r.max, 1)} | ${ratio(r.p99, rest.p99)} | ${fmt(r.rssBefore, 0)} → ${fmt(r.rssAfter, 0)} |`,
    ),
  ];
  console.log(lines.join('\n'));
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ kind: KIND, seconds: SECONDS, rows }, null, 2));
} catch (e) {
  console.error(server.output().slice(-3000));
  throw e;
} finally {
  await prober.terminate();
  agent.destroy();
  await server.stop();
  await db.cleanup();
  if (KIND === 'postgres') rmSync(dataDir, { recursive: true, force: true });
}
