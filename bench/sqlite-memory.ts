/**
 * SQLite's memory for reading (decision 0028): the operations of bench/files-scale.ts at 10,000, 100,000 and
 * 1,000,000 files, served by the unchanged main checkout ("base") and by this one ("new"), each in a server
 * process of its own opened on the same database, as `stoa serve` opens it; p50/p99 and CPU per operation, and
 * the process's resident memory (all, private, mapped file pages, peak).
 *
 *   npm run bench:sqlite-memory                                        # base and new, SQLite, 10k 100k 1M
 *   npm run bench:sqlite-memory -- --sizes 10000,100000 --explore      # also other settings (env overrides)
 *   BENCH_MEM_ENGINES=postgres npm run bench:sqlite-memory -- --sizes 100000   # PostgreSQL: unaffected?
 *   BENCH_MEM_ONLY='base,new,map 2 GiB' npm run bench:sqlite-memory -- --explore   # some of them
 *   BENCH_BASE_ROOT=/work/main (default)
 *
 * The database of each size is built once, by this checkout (bench/lib/many-files.ts `fillProject`, the tree of
 * bench/lib/scale-tree.ts), then each configuration runs once, one after the other, on it: the file stays in
 * the kernel's page cache between them (a warm server; a cold start reads the file from disk once either way).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { bootstrap, contextFor, loadConfig, localAdminPrincipal, openPlatform } from '@stoa/core';
import { sql } from '@stoa/db';
import { fillProject } from './lib/many-files.js';
import { scaleLayout } from './lib/scale-tree.js';
import { fmt, msSince } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..');
const BASE_ROOT = process.env.BENCH_BASE_ROOT ?? '/work/main';
const sizesAt = process.argv.indexOf('--sizes');
const SIZES = (sizesAt > 0 ? process.argv[sizesAt + 1]! : '10000,100000,1000000').split(',').map(Number);
const ENGINES = (process.env.BENCH_MEM_ENGINES ?? 'sqlite').split(',') as Array<'sqlite' | 'postgres'>;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BUDGET_MS = Number(process.env.BENCH_QUERY_BUDGET_MS ?? 15_000);
const PG_ADMIN = process.env.STOA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MiB = 2 ** 20;

interface Setup {
  label: string;
  root: string;
  env: Record<string, string>;
}

const setups: Setup[] = [
  { label: 'base', root: BASE_ROOT, env: {} },
  { label: 'new', root: ROOT, env: {} },
];
if (process.argv.includes('--explore')) {
  setups.push(
    { label: 'map 256 MiB', root: ROOT, env: { STOA_SQLITE_MMAP_BYTES: String(256 * MiB) } },
    { label: 'map 2 GiB', root: ROOT, env: { STOA_SQLITE_MMAP_BYTES: String(2048 * MiB) } },
    { label: 'no map + cache 256 MiB', root: ROOT, env: { STOA_SQLITE_MMAP_BYTES: '0', STOA_SQLITE_CACHE_BYTES: String(256 * MiB) } },
    { label: 'no map + cache 16 MiB', root: ROOT, env: { STOA_SQLITE_MMAP_BYTES: '0', STOA_SQLITE_CACHE_BYTES: String(16 * MiB) } },
  );
}
// BENCH_MEM_ONLY=base,new,…: only these setups (the first must be base).
if (process.env.BENCH_MEM_ONLY) {
  const only = process.env.BENCH_MEM_ONLY.split(',');
  setups.splice(0, setups.length, ...setups.filter((s) => only.includes(s.label)));
}

interface ChildResult {
  openMs: number;
  settings: Record<string, number>;
  atOpen: Record<string, number>;
  atEnd: Record<string, number>;
  ops: Array<{ label: string; n: number; p50: number; p99: number; cpuMs: number }>;
  plan: { kind: string; trigrams?: string[] };
}

/** Builds the project of `n` files in a fresh data folder (SQLite) or database (PostgreSQL); returns its env. */
async function build(
  kind: 'sqlite' | 'postgres',
  n: number,
  dataDir: string,
): Promise<{ env: Record<string, string>; mb: number; s: number; drop: () => Promise<void> }> {
  let env: Record<string, string> = {};
  let drop = async (): Promise<void> => undefined;
  if (kind === 'postgres') {
    const name = `stoa_bench_mem_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    env = { STOA_DATABASE_URL: PG_ADMIN.replace(/\/[^/]*$/, `/${name}`) };
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const t0 = process.hrtime.bigint();
  const platform = await openPlatform(loadConfig({ dataDir, env }));
  let mb = 0;
  try {
    await bootstrap(platform);
    const ctx = await contextFor(platform, await localAdminPrincipal(platform), {});
    let shown = 0;
    await fillProject(ctx, scaleLayout(n), (done) => {
      if (done - shown >= 100_000) {
        shown = done;
        process.stderr.write(`${kind} ${n}: ${done} rows in ${fmt(msSince(t0) / 1000, 0)} s\n`);
      }
    });
    if (kind === 'sqlite') {
      await sql`pragma wal_checkpoint(truncate)`.execute(platform.db.kysely);
      mb = statSync(join(dataDir, 'stoa.db')).size / MiB;
    } else {
      const r = await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(platform.db.kysely);
      mb = Number(r.rows[0]!.n) / MiB;
    }
  } finally {
    await platform.close();
  }
  return { env, mb, s: msSince(t0) / 1000, drop };
}

function runChild(setup: Setup, dataDir: string, n: number, env: Record<string, string>): ChildResult {
  process.stderr.write(`${setup.label} (${setup.root}) at ${n}:\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'lib/sqlite-memory-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...setup.env, BENCH_CHILD: JSON.stringify({ root: setup.root, dataDir, n, queries: QUERIES, budgetMs: BUDGET_MS }) },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * MiB,
  });
  if (r.status !== 0) throw new Error(`${setup.label} at ${n} failed (${r.status})`);
  return JSON.parse(r.stdout.toString().trim().split('\n').pop()!) as ChildResult;
}

const k = (n: number): string => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
const out: string[] = [];
for (const kind of ENGINES) {
  const results = new Map<number, Map<string, ChildResult>>();
  const built = new Map<number, { mb: number; s: number; load: string }>();
  for (const n of SIZES) {
    const dataDir = mkdtempSync(join(tmpdir(), 'stoa-bench-mem-'));
    const db = await build(kind, n, dataDir);
    try {
      const byLabel = new Map<string, ChildResult>();
      for (const s of kind === 'sqlite' ? setups : setups.slice(0, 2)) byLabel.set(s.label, runChild(s, dataDir, n, db.env));
      results.set(n, byLabel);
      built.set(n, {
        mb: db.mb,
        s: db.s,
        load: loadavg()
          .map((x) => x.toFixed(1))
          .join(' '),
      });
    } finally {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const labels = [...results.get(SIZES[0]!)!.keys()];
  const title = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  // Per operation: each setup's p50 / p99 at each size, then each setup's p50 ÷ base's.
  out.push(`### ${title}: p50 / p99 in ms (CPU ms per call), ${labels.join(' vs ')}`, '');
  const head = ['operation', 'size', ...labels.map((l) => `${l} p50 / p99 (CPU)`), ...labels.slice(1).map((l) => `${l} ÷ base p50`)];
  out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  const opLabels = results
    .get(SIZES[0]!)!
    .get('base')!
    .ops.map((o) => o.label);
  opLabels.forEach((label, i) => {
    for (const n of SIZES) {
      const byLabel = results.get(n)!;
      const base = byLabel.get('base')!.ops[i]!;
      const cells = labels.map((l) => {
        const o = byLabel.get(l)!.ops[i]!;
        return `${fmt(o.p50, 2)} / ${fmt(o.p99, 2)} (${fmt(o.cpuMs, 2)})`;
      });
      const ratios = labels.slice(1).map((l) => `${(byLabel.get(l)!.ops[i]!.p50 / base.p50).toFixed(2)}×`);
      out.push(`| ${[label, k(n), ...cells, ...ratios].join(' | ')} |`);
    }
  });
  out.push(
    '',
    `Growth of p50 per ×10 files (${SIZES.slice(1)
      .map((n, i) => `${k(n)}÷${k(SIZES[i]!)}`)
      .join(', ')}):`,
    '',
  );
  out.push(`| operation | ${labels.join(' | ')} |`, `|---|${labels.map(() => '---').join('|')}|`);
  opLabels.forEach((label, i) => {
    const cells = labels.map((l) =>
      SIZES.slice(1)
        .map((n, j) => `${(results.get(n)!.get(l)!.ops[i]!.p50 / results.get(SIZES[j]!)!.get(l)!.ops[i]!.p50).toFixed(2)}×`)
        .join(', '),
    );
    out.push(`| ${label} | ${cells.join(' | ')} |`);
  });
  out.push('', 'Server process memory in MiB at the end (resident / private / mapped file pages / peak), settings read back, the plan of "invoice 2003-":', '');
  out.push(`| size | database MB | ${labels.join(' | ')} |`, `|---|---|${labels.map(() => '---').join('|')}|`);
  for (const n of SIZES) {
    const cells = labels.map((l) => {
      const r = results.get(n)!.get(l)!;
      const m = r.atEnd;
      const set = kind === 'sqlite' ? ` (mmap ${fmt(r.settings.mmap_size! / MiB, 0)} MiB, cache ${r.settings.cache_size})` : '';
      const plan = `${r.plan.kind}${r.plan.trigrams ? ` "${r.plan.trigrams.join('", "')}"` : ''}`;
      return `${fmt(m.rss!, 0)} / ${fmt(m.anon!, 0)} / ${fmt(m.file!, 0)} / ${fmt(m.peak!, 0)}${set}; plan ${plan}`;
    });
    out.push(`| ${k(n)} | ${fmt(built.get(n)!.mb, 0)} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    `Build (this checkout) and load average after each size: ${SIZES.map((n) => `${k(n)} ${fmt(built.get(n)!.s, 0)} s, ${built.get(n)!.load}`).join('; ')}.`,
    '',
  );
}
process.stdout.write(out.join('\n') + '\n');
