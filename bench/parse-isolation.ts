/**
 * Parsing that cannot hurt the server (issue 9): p99 of a small GET while hostile files are parsed, against the
 * same p99 at rest, on one `stoa serve` process (SQLite, local disk).
 *
 *   node --import tsx bench/parse-isolation.ts [--rounds 3] [--gets 1000] [--clients 4] [--json out.json]
 *
 * Scenarios, each measured over the same number of GETs of a 4 KB file by `--clients` keep-alive clients, in
 * interleaved rounds:
 * - rest: nothing else happens;
 * - pdf page tree: a 20,000-page PDF is being parsed (the page cap is lifted so the parser really walks it;
 *   its worker stays busy for the window and is ended by the time cap, 15 s);
 * - docx bombs: 1 GB DOCX zip bombs are sent to understanding back to back (each refused by the unpacking caps).
 * Reported: p50/p99 in ms, the p99 as a ratio to rest (aim: under 2×), the CPU time of the server's main
 * thread per GET (from /proc/PID/task/PID/stat; it moves far less than wall-clock figures on a shared machine
 * and shows whether parsing costs the request thread anything), and the server's peak resident memory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDocxBomb, makePdfPageTree } from '../packages/core/src/understanding/test-documents.js';
import { httpJson, httpRequest, keepAliveAgent } from './lib/http-client.js';
import { cpuTimeMs, peakRssBytes } from './lib/rss.js';
import { fmt, ratio, summarize, type Summary } from './lib/stats.js';
import { startStoa } from './lib/stoa-server.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const GETS = Number(arg('--gets', '1000'));
const CLIENTS = Number(arg('--clients', '4'));
const ROUNDS = Number(arg('--rounds', '3'));
const JSON_OUT = process.argv.includes('--json') ? arg('--json', '') : null;

/** CPU time (ms) of the server's main thread only (its thread id is the pid): parsing runs on other threads. */
const mainThreadCpuMs = (pid: number) => cpuTimeMs(pid, pid) ?? Number.NaN;

const dataDir = mkdtempSync(join(tmpdir(), 'stoa-bench-parse-'));
const server = await startStoa({
  dataDir,
  env: { STOA_PARSE_MAX_PAGES: '100000', STOA_PARSE_TIMEOUT_MS: '15000', STOA_PARSE_MAX_ATTEMPTS: '1' },
});
const agent = keepAliveAgent(CLIENTS + 2);
const headers = { authorization: `Bearer ${server.token}` };
const api = (p: string) => `${server.url}/api/v1/projects/default${p}`;
const put = (path: string, body: Buffer) => httpJson(api(`/files/content?path=${encodeURIComponent(path)}`), { method: 'PUT', headers, body, agent });
const understand = (path: string) =>
  httpRequest(api('/docs/understand'), {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ path })),
    agent,
    collect: true,
  });
const status = async (path: string) =>
  JSON.parse((await httpRequest(api(`/docs/status?path=${encodeURIComponent(path)}`), { method: 'GET', headers, agent, collect: true })).body!.toString());

/** `GETS` GETs of the small file by `CLIENTS` clients: latencies in ms, wall time, main-thread CPU used. */
async function measureGets(): Promise<{ latencies: number[]; wallMs: number; cpuMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = mainThreadCpuMs(server.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < GETS) {
        next++;
        const t0 = performance.now();
        const r = await httpRequest(api('/files/content?path=small.txt'), { method: 'GET', headers, agent });
        if (r.status !== 200) throw new Error(`GET answered ${r.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started, cpuMs: mainThreadCpuMs(server.pid) - cpu0 };
}

type Scenario = 'rest' | 'pdf page tree being parsed' | 'docx bombs back to back';
const windows = new Map<Scenario, Array<Awaited<ReturnType<typeof measureGets>>>>();
const notes = new Map<Scenario, string[]>();
const record = (name: Scenario, w: Awaited<ReturnType<typeof measureGets>>, note?: string) => {
  windows.set(name, [...(windows.get(name) ?? []), w]);
  if (note) notes.set(name, [...(notes.get(name) ?? []), note]);
};

try {
  await put('small.txt', Buffer.alloc(4096, 'x'));
  await put('pages.pdf', makePdfPageTree(20_000));
  await put('bomb.docx', makeDocxBomb(1024));
  // Warm-up (not measured): the connection pool, and a first parse so a parser worker is running.
  await measureGets();
  await understand('bomb.docx');
  // Rounds interleave the scenarios, so load from elsewhere on a shared machine falls on all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    record('rest', await measureGets());
    const pdf = understand('pages.pdf');
    const during = await measureGets();
    const st = await status('pages.pdf');
    record('pdf page tree being parsed', during, st.status === 'pending' ? 'running' : `ended (${st.errorCode ?? st.status})`);
    await pdf;
    // The PDF's worker was ended on time; the first bomb waits for a fresh one to start (not measured).
    await understand('bomb.docx');
    let bombs = 0;
    let stop = false;
    const sender = (async () => {
      while (!stop) {
        const r = await understand('bomb.docx');
        if (r.status !== 200 || JSON.parse(r.body!.toString()).errorCode !== 'too_large') throw new Error('bomb was not refused');
        bombs++;
      }
    })();
    const bombRun = await measureGets();
    stop = true;
    await sender;
    record('docx bombs back to back', bombRun, `${bombs} refused`);
  }

  const summary = (name: Scenario): Summary & { cpuPerGet: number } => {
    const ws = windows.get(name)!;
    const s = summarize(
      ws.flatMap((w) => w.latencies),
      ws.reduce((a, w) => a + w.wallMs, 0),
    );
    return { ...s, cpuPerGet: ws.reduce((a, w) => a + w.cpuMs, 0) / s.ops };
  };
  const rest = summary('rest');
  const peak = peakRssBytes(server.pid);
  const scenarios: Scenario[] = ['rest', 'pdf page tree being parsed', 'docx bombs back to back'];
  const rows = scenarios.map((name) => ({ name, s: summary(name), note: (notes.get(name) ?? []).join(', ') }));
  const lines = [
    `GETs of a 4 KB file: ${ROUNDS} rounds × ${GETS} per scenario, ${CLIENTS} clients. Server peak RSS: ${peak ? fmt(peak / 2 ** 20, 0) : '–'} MB.`,
    '',
    '| scenario | GET/s | p50 ms | p99 ms | p99 vs rest | main-thread CPU ms/GET | vs rest | note |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${fmt(r.s.opsPerSec, 0)} | ${fmt(r.s.p50, 2)} | ${fmt(r.s.p99, 2)} | ${ratio(r.s.p99, rest.p99)} | ${fmt(r.s.cpuPerGet, 3)} | ${ratio(r.s.cpuPerGet, rest.cpuPerGet)} | ${r.note} |`,
    ),
  ];
  console.log(lines.join('\n'));
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ gets: GETS, clients: CLIENTS, rounds: ROUNDS, peakRss: peak, rows }, null, 2));
} finally {
  await server.stop();
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
