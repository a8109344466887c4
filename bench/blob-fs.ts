/**
 * The local-disk blob store alone (issue 30), without HTTP or the database: 16 concurrent puts of distinct 4 KB
 * and 64 KB streams into `createFsBlobStore`, beside the bare minimum of a durable write (temp file → write →
 * fsync → rename, as `bare-fsync` in files-http.ts) in the same process, in interleaved rounds.
 *
 *   node --import tsx bench/blob-fs.ts                                   # N = 2000 per size
 *   BENCH_BASE_ROOT=/work/base BENCH_FILES=1000 node --import tsx bench/blob-fs.ts   # … and the store of another checkout
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createFsBlobStore } from '@stoa/blob';
import { runConcurrent } from './lib/runner.js';
import { fmt, ratio, summarize } from './lib/stats.js';

const COUNT = Number(process.env.BENCH_FILES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = 4;
const SIZES = [4096, 65536];

type Put = (body: Buffer) => Promise<void>;

/**
 * The bare durable write: what bench/lib/bare-server.ts does with --fsync, minus HTTP (`syncDir` false). With
 * `syncDir`, also what a crash-safe rename needs on any POSIX filesystem: 256 folders and an fsync of the folder
 * renamed into, each put its own.
 */
async function bare(root: string, syncDir: boolean): Promise<Put> {
  await mkdir(join(root, '.tmp'), { recursive: true });
  const shards = Array.from({ length: 256 }, (_, i) => join(root, i.toString(16).padStart(2, '0')));
  for (const d of shards) await mkdir(d, { recursive: true });
  let n = 0;
  return async (body) => {
    const tmp = join(root, '.tmp', randomUUID());
    const fh = await open(tmp, 'wx');
    try {
      await fh.writeFile(body);
      await fh.sync();
    } finally {
      await fh.close();
    }
    const dir = shards[n++ % 256]!;
    await rename(tmp, join(dir, randomUUID()));
    if (!syncDir) return;
    const dh = await open(dir, 'r');
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  };
}

async function store(root: string, base?: string): Promise<Put> {
  const create: typeof createFsBlobStore = base
    ? ((await import(pathToFileURL(join(base, 'packages/blob/src/fs-store.ts')).href)) as { createFsBlobStore: typeof createFsBlobStore }).createFsBlobStore
    : createFsBlobStore;
  const s = create({ root });
  // A stream, as an HTTP upload arrives (a Buffer would take the in-memory path).
  return async (body) => void (await s.put(Readable.from([body])));
}

const sides: Array<[string, (root: string) => Promise<Put>]> = [
  ['store', (r) => store(r)],
  ...(process.env.BENCH_BASE_ROOT ? [['store-base', (r: string) => store(r, process.env.BENCH_BASE_ROOT)] as [string, (root: string) => Promise<Put>]] : []),
  ['bare-fsync+dir', (r) => bare(r, true)],
  ['bare-fsync', (r) => bare(r, false)],
];
const root = await mkdtemp(join(tmpdir(), 'stoa-bench-blob-'));
const out: string[] = [
  `${COUNT} distinct blobs per size, ${CONCURRENCY} concurrent puts, ${ROUNDS} interleaved rounds, one process; ms.`,
  '',
  '| side | size | puts/s | p50 | p99 | ÷ bare-fsync |',
  '|---|---|---|---|---|---|',
];
try {
  for (const size of SIZES) {
    const puts = await Promise.all(sides.map(async ([name, make]) => make(join(root, `${name}-${size}`))));
    const lat = sides.map(() => [] as number[]);
    const wall = sides.map(() => 0);
    const base = randomBytes(size);
    let n = 0;
    const body = (): Buffer => {
      const b = Buffer.from(base);
      b.write(`${n++}:`.padEnd(16, '.'), 0, 'latin1');
      return b;
    };
    for (const put of puts) await runConcurrent({ count: 100, concurrency: CONCURRENCY, maxMs: 60_000, task: () => put(body()) });
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < sides.length; k++) {
        const j = (k + r) % sides.length;
        const res = await runConcurrent({ count: COUNT / ROUNDS, concurrency: CONCURRENCY, maxMs: 120_000, task: () => puts[j]!(body()) });
        if (res.errors) throw new Error(`${sides[j]![0]}: ${res.firstError}`);
        lat[j]!.push(...res.latencies);
        wall[j]! += res.wallMs;
      }
    }
    const sums = sides.map((_, j) => summarize(lat[j]!, wall[j]!));
    const bareOps = sums.at(-1)!.opsPerSec;
    for (const [j, [name]] of sides.entries()) {
      const s = sums[j]!;
      out.push(`| ${name} | ${size / 1024} KB | ${fmt(s.opsPerSec, 0)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${ratio(s.opsPerSec, bareOps)} |`);
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
process.stdout.write(out.join('\n') + '\n');
