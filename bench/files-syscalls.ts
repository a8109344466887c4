/**
 * System calls per small-file PUT (issue 30): `strace -c -f` attached to a running Stoa server (every thread,
 * libuv's pool included) while 16 clients PUT N distinct 4 KB files, after a warm-up that is not counted.
 * Prints, per PUT, the calls that make a write durable or find its folder: fsync/fdatasync, mkdir, stat (all
 * variants), open, rename, close — beside the bare server that fsyncs each file once (`bare-fsync`).
 *
 *   node --import tsx bench/files-syscalls.ts                                  # this checkout + bare-fsync, N = 200
 *   BENCH_BASE_ROOT=/work/base BENCH_FILES=400 node --import tsx bench/files-syscalls.ts   # … and another checkout beside it
 *
 * Needs `strace` (apt-get install strace) and the right to trace a child of this process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpRequest, keepAliveAgent } from './lib/http-client.js';
import { runConcurrent } from './lib/runner.js';
import { fmt } from './lib/stats.js';
import { startProcess, startStoa, type StartedServer } from './lib/stoa-server.js';

const COUNT = Number(process.env.BENCH_FILES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SIZE = 4096;
const WARMUP = 100;

/** The columns printed, each the sum of the system calls named. */
const GROUPS: Record<string, string[]> = {
  fsync: ['fsync', 'fdatasync'],
  mkdir: ['mkdir', 'mkdirat'],
  stat: ['stat', 'lstat', 'fstat', 'newfstatat', 'statx', 'fstatat64'],
  open: ['open', 'openat', 'openat2'],
  rename: ['rename', 'renameat', 'renameat2'],
  close: ['close'],
};

interface Side {
  name: string;
  server: StartedServer;
  url(i: number): string;
  headers: Record<string, string>;
}

async function start(name: string, dir: string): Promise<Side> {
  if (name === 'bare-fsync') {
    const s = await startProcess({ args: ['--import', 'tsx', 'bench/lib/child-server.ts', 'bare', dir, '--fsync'], ready: /listening on (http:\/\/\S+)/ });
    return { name, server: s, url: (i) => `${s.url}/f/${i}.bin`, headers: {} };
  }
  const root = name === 'stoa-base' ? process.env.BENCH_BASE_ROOT : undefined;
  const s = await startStoa({ dataDir: dir, root });
  return {
    name,
    server: s,
    url: (i) => `${s.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(`s/d${i % 50}/f${i}.bin`)}`,
    headers: { authorization: `Bearer ${s.token}` },
  };
}

async function puts(side: Side, from: number, count: number, base: Buffer): Promise<void> {
  const agent = keepAliveAgent(CONCURRENCY);
  const r = await runConcurrent({
    count,
    concurrency: CONCURRENCY,
    maxMs: 120_000,
    task: async (i) => {
      const body = Buffer.from(base);
      body.write(`${from + i}:`.padEnd(16, '.'), 0, 'latin1');
      const res = await httpRequest(side.url(from + i), {
        method: 'PUT',
        body,
        agent,
        headers: { ...side.headers, 'content-type': 'application/octet-stream' },
      });
      if (res.status < 200 || res.status >= 300) throw new Error(`PUT → ${res.status}`);
    },
  });
  agent.destroy();
  if (r.errors) throw new Error(`${side.name}: ${r.errors} failed PUTs (${r.firstError})`);
}

/** `strace -c` summary lines: "% time seconds usecs/call calls errors syscall". */
function parseSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z0-9_]+)\s*$/.exec(line);
    if (m && m[2] !== 'total') calls.set(m[2]!, Number(m[1]));
  }
  return calls;
}

async function count(side: Side, base: Buffer, dir: string): Promise<Record<string, number>> {
  await puts(side, 1_000_000, WARMUP, base);
  const out = join(dir, 'strace.txt');
  const strace = spawn('strace', ['-c', '-f', '-o', out, '-p', String(side.server.pid)], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => strace.once('exit', () => r()));
  await new Promise((r) => setTimeout(r, 1000)); // attached to every thread
  await puts(side, 0, COUNT, base);
  strace.kill('SIGINT');
  await exited;
  const calls = parseSummary(await readFile(out, 'utf8'));
  const perPut: Record<string, number> = {};
  for (const [g, names] of Object.entries(GROUPS)) perPut[g] = names.reduce((s, n) => s + (calls.get(n) ?? 0), 0) / COUNT;
  return perPut;
}

const sides = ['stoa', ...(process.env.BENCH_BASE_ROOT ? ['stoa-base'] : []), 'bare-fsync'];
const rows: Array<[string, Record<string, number>]> = [];
for (const name of sides) {
  const dir = await mkdtemp(join(tmpdir(), `stoa-syscalls-${name}-`));
  const side = await start(name, join(dir, 'data'));
  try {
    rows.push([name, await count(side, randomBytes(SIZE), dir)]);
  } finally {
    await side.server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
const cols = Object.keys(GROUPS);
process.stdout.write(
  [
    `System calls per 4 KB PUT (strace -c -f on the server, ${COUNT} PUTs by ${CONCURRENCY} clients after ${WARMUP} not counted):`,
    '',
    `| server | ${cols.join(' | ')} |`,
    `|---|${cols.map(() => '---|').join('')}`,
    ...rows.map(([n, r]) => `| ${n} | ${cols.map((c) => fmt(r[c]!, 2)).join(' | ')} |`),
  ].join('\n') + '\n',
);
