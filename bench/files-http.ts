/**
 * Small files over HTTP: Stoa side by side with s3rver and a bare node:http + fs server (issue 2, "Benchmarks").
 * For each server (one process each, started in turn in this run) and each size (4 KB, 64 KB): 16 concurrent
 * keep-alive clients PUT N distinct files, then GET them all back. The same node:http client talks to all.
 *
 *   npm run bench:files                      # N = 2000 per size
 *   BENCH_FILES=500 npm run bench:files      # quicker
 *   BENCH_SERVERS=stoa,bare npm run bench:files
 *   BENCH_CPU_PROF=/tmp/prof BENCH_SERVERS=stoa npm run bench:files   # CPU profile of the Stoa server
 *   BENCH_SERVERS=stoa,stoa-pg,bare npm run bench:files              # Stoa on SQLite and on PostgreSQL side by side
 *   BENCH_BASE_ROOT=../base BENCH_SERVERS=stoa,stoa-base,bare,bare-fsync npm run bench:files   # a change beside its base checkout
 *   (stoa-base-pg: the base checkout on PostgreSQL; with a base, a table of this checkout ÷ base is added)
 *   BENCH_TEXT=1 npm run bench:files         # Markdown files of words instead of random bytes: each PUT is search-indexed
 *   BENCH_SIZES=65536 npm run bench:files    # one size only (bytes, comma-separated; default 4096,65536)
 *
 * Prints a Markdown table of ops/s, p50 and p99 (ms) and the ratios Stoa/s3rver and Stoa/bare.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '@stoa/db/testing';
import { httpRequest, keepAliveAgent } from './lib/http-client.js';
import { runConcurrent } from './lib/runner.js';
import { reportAims, type Aim } from './lib/aims.js';
import { fmt, ratio, summarize, type Summary } from './lib/stats.js';
import { startProcess, startStoa, type StartedServer } from './lib/stoa-server.js';
import { cpuTimeMs, peakRssBytes } from './lib/rss.js';

const COUNT = Number(process.env.BENCH_FILES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PHASE_MAX_MS = Number(process.env.BENCH_PHASE_MAX_MS ?? 45_000);
const WARMUP = 100;
const SIZES = (process.env.BENCH_SIZES ?? '4096,65536').split(',').map(Number);
const SERVERS = (process.env.BENCH_SERVERS ?? 'stoa,s3rver,bare,bare-fsync').split(',');
/** BENCH_TEXT=1: text files (what Stoa indexes for search) instead of binary ones (which it does not). */
const TEXT = process.env.BENCH_TEXT === '1';
const EXT = TEXT ? 'md' : 'bin';
const CONTENT_TYPE = TEXT ? 'text/markdown' : 'application/octet-stream';

/** `size` bytes of lowercase words, lines of about ten: text with many distinct terms, as notes have. */
function wordsOf(size: number): Buffer {
  const r = randomBytes(size);
  let out = '';
  let i = 0;
  while (out.length < size) {
    const len = 3 + (r[i++ % size]! % 6);
    for (let k = 0; k < len; k++) out += String.fromCharCode(97 + (r[i++ % size]! % 26));
    out += r[i++ % size]! % 10 === 0 ? '\n' : ' ';
  }
  return Buffer.from(out.slice(0, size), 'latin1');
}

interface Target {
  name: string;
  server: StartedServer;
  url(key: string): string;
  headers: Record<string, string>;
}

async function startTarget(name: string, dir: string): Promise<Target> {
  if (isStoa(name)) {
    // BENCH_CPU_PROF=DIR: profile the Stoa server (a .cpuprofile is written there when it stops).
    const prof = process.env.BENCH_CPU_PROF;
    // stoa-pg: the same server on a fresh PostgreSQL database (127.0.0.1:5432 or STOA_TEST_PG_URL), dropped at the end.
    const db = name.endsWith('-pg') ? await createTestDb('postgres') : null;
    await db?.db.close();
    const s = await startStoa({
      dataDir: dir,
      // stoa-base: the same server from another checkout (BENCH_BASE_ROOT, built), to compare a change with its base in one run.
      root: name.startsWith('stoa-base') ? baseRoot() : undefined,
      nodeArgs: prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : [],
      env: { ...(name.startsWith('stoa-base') ? {} : stoaSettings()), ...(db ? { STOA_DATABASE_URL: db.url! } : {}) },
    });
    return {
      name,
      server: db
        ? {
            ...s,
            stop: async () => {
              await s.stop();
              await db.cleanup();
            },
          }
        : s,
      url: (k) => `${s.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(k)}`,
      headers: { authorization: `Bearer ${s.token}` },
    };
  }
  const args = ['--import', 'tsx', 'bench/lib/child-server.ts', name === 's3rver' ? 's3rver' : 'bare', dir];
  if (name === 'bare-fsync') args.push('--fsync');
  const s = await startProcess({ args, ready: /listening on (http:\/\/\S+)/ });
  const base = name === 's3rver' ? `${s.url}/bench/` : `${s.url}/`;
  return { name, server: s, url: (k) => base + k.split('/').map(encodeURIComponent).join('/'), headers: {} };
}

/** BENCH_STOA_ENV="STOA_X=1,STOA_Y=2": settings for this checkout's servers only (not stoa-base), so a setting can be
 *  compared with the default in one run (BENCH_BASE_ROOT=. runs this checkout as the base). */
function stoaSettings(): Record<string, string> {
  const pairs = (process.env.BENCH_STOA_ENV ?? '').split(',').filter(Boolean);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

/** stoa, stoa-pg, and stoa-base / stoa-base-pg: the same from the checkout in BENCH_BASE_ROOT. */
function isStoa(name: string): boolean {
  return /^stoa(-base)?(-pg)?$/.test(name);
}

function baseRoot(): string {
  const root = process.env.BENCH_BASE_ROOT;
  if (!root) throw new Error('stoa-base needs BENCH_BASE_ROOT: a checkout of the base commit, with node_modules and `npm run build` done');
  return root;
}

/** Distinct contents (so no two files deduplicate): a random block with the file number stamped in front. */
function content(base: Buffer, i: number): Buffer {
  const b = Buffer.from(base);
  b.write(`${i}:`.padEnd(16, '.'), 0, 'latin1');
  return b;
}

interface Acc {
  put: number[];
  get: number[];
  putWall: number;
  getWall: number;
  putCpu: number;
  getCpu: number;
  errors: number;
  firstError?: string;
  timedOut: boolean;
}
interface Row {
  server: string;
  size: number;
  put: Summary;
  get: Summary;
  putCpuMs: number;
  getCpuMs: number;
  errors: number;
  peakRss: number | null;
}

const label = (size: number): string => `${size / 1024}k`;
const key = (size: number, i: number): string => `bench/${label(size)}/d${i % 50}/f${String(i).padStart(6, '0')}.${EXT}`;

function client(t: Target, agent: ReturnType<typeof keepAliveAgent>) {
  return {
    put: async (k: string, body: Buffer): Promise<void> => {
      const r = await httpRequest(t.url(k), { method: 'PUT', body, agent, headers: { ...t.headers, 'content-type': CONTENT_TYPE } });
      if (r.status < 200 || r.status >= 300) throw new Error(`PUT ${k} → ${r.status}`);
    },
    get: async (k: string, size: number): Promise<void> => {
      const r = await httpRequest(t.url(k), { method: 'GET', agent, headers: t.headers });
      if (r.status !== 200 || r.bytes !== size) throw new Error(`GET ${k} → ${r.status}, ${r.bytes} bytes`);
    },
  };
}

/**
 * One chunk of PUTs then GETs against one server, added to its accumulator. Chunks of all servers are
 * interleaved (round-robin, order rotated each round), so load from anything else sharing the machine falls
 * on every server alike and the ratios stay meaningful.
 */
async function runChunk(t: Target, agent: ReturnType<typeof keepAliveAgent>, size: number, base: Buffer, from: number, count: number, acc: Acc): Promise<void> {
  const c = client(t, agent);
  let cpu0 = cpuTimeMs(t.server.pid) ?? 0;
  const p = await runConcurrent({ count, concurrency: CONCURRENCY, maxMs: PHASE_MAX_MS, task: (i) => c.put(key(size, from + i), content(base, from + i)) });
  let cpu1 = cpuTimeMs(t.server.pid) ?? 0;
  acc.put.push(...p.latencies);
  acc.putWall += p.wallMs;
  acc.putCpu += cpu1 - cpu0;
  const written = p.latencies.length + p.errors;
  cpu0 = cpu1;
  const g = await runConcurrent({ count: written, concurrency: CONCURRENCY, maxMs: PHASE_MAX_MS, task: (i) => c.get(key(size, from + i), size) });
  cpu1 = cpuTimeMs(t.server.pid) ?? 0;
  acc.get.push(...g.latencies);
  acc.getWall += g.wallMs;
  acc.getCpu += cpu1 - cpu0;
  acc.errors += p.errors + g.errors;
  acc.firstError ??= p.firstError ?? g.firstError;
  acc.timedOut ||= p.timedOut || g.timedOut;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const targets: Target[] = [];
const dirs: string[] = [];
const rows: Row[] = [];
try {
  for (const name of SERVERS) {
    const dir = await mkdtemp(join(tmpdir(), `stoa-bench-${name}-`));
    dirs.push(dir);
    targets.push(await startTarget(name, dir));
  }
  const agents = targets.map(() => keepAliveAgent(CONCURRENCY));
  for (const size of SIZES) {
    const base = TEXT ? wordsOf(size) : randomBytes(size);
    const accs: Acc[] = targets.map(() => ({ put: [], get: [], putWall: 0, getWall: 0, putCpu: 0, getCpu: 0, errors: 0, timedOut: false }));
    // Warm-up (JIT, first directories, connections), not measured.
    for (const [j, t] of targets.entries()) {
      const c = client(t, agents[j]!);
      await runConcurrent({
        count: WARMUP,
        concurrency: CONCURRENCY,
        maxMs: PHASE_MAX_MS,
        task: (i) => c.put(`warm/${label(size)}/w${i}.${EXT}`, content(base, -i - 1)),
      });
      await runConcurrent({ count: WARMUP, concurrency: CONCURRENCY, maxMs: PHASE_MAX_MS, task: (i) => c.get(`warm/${label(size)}/w${i}.${EXT}`, size) });
    }
    const chunk = Math.ceil(COUNT / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      const from = r * chunk;
      const count = Math.min(chunk, COUNT - from);
      for (let k = 0; k < targets.length; k++) {
        const j = (k + r) % targets.length;
        await runChunk(targets[j]!, agents[j]!, size, base, from, count, accs[j]!);
      }
    }
    for (const [j, t] of targets.entries()) {
      const a = accs[j]!;
      if (a.errors) process.stderr.write(`${t.name} ${label(size)}: ${a.errors} errors; first: ${a.firstError}\n`);
      if (a.timedOut) process.stderr.write(`${t.name} ${label(size)}: a phase stopped at the ${PHASE_MAX_MS} ms budget\n`);
      rows.push({
        server: t.name,
        size,
        put: summarize(a.put, a.putWall),
        get: summarize(a.get, a.getWall),
        putCpuMs: a.putCpu / Math.max(1, a.put.length),
        getCpuMs: a.getCpu / Math.max(1, a.get.length),
        errors: a.errors,
        peakRss: peakRssBytes(t.server.pid),
      });
      const row = rows.at(-1)!;
      process.stderr.write(
        `${t.name} ${label(size)}: PUT ${fmt(row.put.opsPerSec, 0)}/s (${fmt(row.putCpuMs, 2)} ms CPU/op), GET ${fmt(row.get.opsPerSec, 0)}/s (${fmt(row.getCpuMs, 2)} ms CPU/op)\n`,
      );
    }
  }
  for (const a of agents) a.destroy();
} finally {
  for (const t of targets) await t.server.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}

const mb = (n: number | null): string => (n === null ? '–' : `${Math.round(n / 1048576)} MB`);
const out: string[] = [];
out.push(
  `${COUNT} ${TEXT ? 'text (Markdown, search-indexed)' : 'binary'} files per size in ${ROUNDS} interleaved rounds, ${CONCURRENCY} concurrent keep-alive clients (node:http), PUT then GET; latencies in ms; CPU = server process CPU time per operation.`,
  '',
);
out.push('| server | size | PUT ops/s | PUT p50 | PUT p99 | PUT CPU/op | GET ops/s | GET p50 | GET p99 | GET CPU/op | errors | peak RSS |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  out.push(
    `| ${r.server} | ${r.size / 1024} KB | ${fmt(r.put.opsPerSec, 0)} | ${fmt(r.put.p50, 2)} | ${fmt(r.put.p99, 2)} | ${fmt(r.putCpuMs, 2)} | ${fmt(r.get.opsPerSec, 0)} | ${fmt(r.get.p50, 2)} | ${fmt(r.get.p99, 2)} | ${fmt(r.getCpuMs, 2)} | ${r.errors} | ${mb(r.peakRss)} |`,
  );
}
const others = SERVERS.filter((s) => s !== 'stoa' && s !== 'stoa-pg' && !s.startsWith('stoa-base'));
out.push(
  '',
  `| size | op | ${others.map((o) => `Stoa/${o} ops/s`).join(' | ')} | ${others.map((o) => `Stoa/${o} CPU per op`).join(' | ')} |`,
  `|---|---|${others.map(() => '---|').join('')}${others.map(() => '---|').join('')}`,
);
const find = (s: string, size: number): Row | undefined => rows.find((r) => r.server === s && r.size === size);
for (const size of SIZES) {
  for (const op of ['put', 'get'] as const) {
    const st = find('stoa', size);
    const ops = others.map((o) => ratio(st?.[op].opsPerSec ?? Number.NaN, find(o, size)?.[op].opsPerSec ?? Number.NaN));
    const cpu = others.map((o) =>
      ratio(
        op === 'put' ? (st?.putCpuMs ?? Number.NaN) : (st?.getCpuMs ?? Number.NaN),
        (op === 'put' ? find(o, size)?.putCpuMs : find(o, size)?.getCpuMs) ?? Number.NaN,
      ),
    );
    out.push(`| ${size / 1024} KB | ${op.toUpperCase()} | ${ops.join(' | ')} | ${cpu.join(' | ')} |`);
  }
}
const pairs = [
  ['stoa', 'stoa-base'],
  ['stoa-pg', 'stoa-base-pg'],
].filter(([a, b]) => SERVERS.includes(a!) && SERVERS.includes(b!));
if (pairs.length) {
  out.push('', '| size | op | server | this ÷ base ops/s | this ÷ base CPU per op | this ÷ base p99 |', '|---|---|---|---|---|---|');
  for (const size of SIZES) {
    for (const op of ['put', 'get'] as const) {
      for (const [a, b] of pairs) {
        const [x, y] = [find(a!, size), find(b!, size)];
        const cpu = (r: Row | undefined) => (op === 'put' ? r?.putCpuMs : r?.getCpuMs) ?? Number.NaN;
        out.push(
          `| ${size / 1024} KB | ${op.toUpperCase()} | ${a} | ${ratio(x?.[op].opsPerSec ?? Number.NaN, y?.[op].opsPerSec ?? Number.NaN)} | ${ratio(cpu(x), cpu(y))} | ${ratio(x?.[op].p99 ?? Number.NaN, y?.[op].p99 ?? Number.NaN)} |`,
        );
      }
    }
  }
}
if (SERVERS.includes('stoa') && SERVERS.includes('stoa-pg')) {
  out.push('', '| size | op | PostgreSQL ÷ SQLite ops/s | PostgreSQL ÷ SQLite CPU per op |', '|---|---|---|---|');
  for (const size of SIZES) {
    const [sq, pq] = [find('stoa', size), find('stoa-pg', size)];
    for (const op of ['put', 'get'] as const) {
      const cpu = (r: Row | undefined) => (op === 'put' ? r?.putCpuMs : r?.getCpuMs) ?? Number.NaN;
      out.push(
        `| ${size / 1024} KB | ${op.toUpperCase()} | ${ratio(pq?.[op].opsPerSec ?? Number.NaN, sq?.[op].opsPerSec ?? Number.NaN)} | ${ratio(cpu(pq), cpu(sq))} |`,
      );
    }
  }
}
process.stdout.write(out.join('\n') + '\n');
// Issue 30 item 1: PUT ≥ 0.8× the bare server that fsyncs once per file, GET ≥ 0.8× the bare server, with 16
// clients. Only a run of Stoa on SQLite beside those servers, at the issue's concurrency, measures them.
if (CONCURRENCY === 16 && !TEXT && SERVERS.includes('stoa')) {
  const aims: Aim[] = [];
  const getPeer = SERVERS.includes('bare') ? 'bare' : 'bare-fsync';
  for (const size of SIZES) {
    const st = find('stoa', size);
    if (SERVERS.includes('bare-fsync'))
      aims.push({
        aim: `files: PUT ${size / 1024} KB ÷ bare-fsync`,
        value: (st?.put.opsPerSec ?? Number.NaN) / (find('bare-fsync', size)?.put.opsPerSec ?? Number.NaN),
        line: 0.8,
        unit: '×',
        better: 'higher',
        note: '16 clients',
      });
    if (SERVERS.includes(getPeer))
      aims.push({
        aim: `files: GET ${size / 1024} KB ÷ ${getPeer}`,
        value: (st?.get.opsPerSec ?? Number.NaN) / (find(getPeer, size)?.get.opsPerSec ?? Number.NaN),
        line: 0.8,
        unit: '×',
        better: 'higher',
        note: '16 clients',
      });
  }
  reportAims(aims);
}
