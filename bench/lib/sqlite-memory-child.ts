/**
 * One server process of bench/sqlite-memory.ts: opens the platform of an existing data folder from the checkout
 * named by `root` (this worktree, or the unchanged main one), as `stoa serve` does (`loadConfig` from the
 * environment, `openPlatform`, `bootstrap`), runs each operation through `runOperation` and prints one JSON line:
 * p50/p99 and CPU per operation, the SQLite settings in force and the process's memory.
 *
 * Imports nothing of this checkout's core: the checkout under test is loaded from `root`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Readable } from 'node:stream';
import { measure } from './measure.js';
import { scalePath } from './scale-tree.js';

interface Args {
  root: string;
  dataDir: string;
  n: number;
  queries: number;
  budgetMs: number;
}

const args = JSON.parse(process.env.BENCH_CHILD!) as Args;
const from = (rel: string): Promise<any> => import(pathToFileURL(join(args.root, rel)).href);
const core = await from('packages/core/src/index.ts');
const { sql } = await from('packages/db/src/index.ts');

/** Resident memory from /proc (kB → MiB): all of it, the heap and other private memory, the mapped file pages, the peak. */
function memory(): Record<string, number> {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string): number => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), peak: kb('VmHWM') };
}

const t0 = process.hrtime.bigint();
const platform = await core.openPlatform(core.loadConfig({ dataDir: args.dataDir, env: process.env }));
await core.bootstrap(platform);
const ctx = await core.contextFor(platform, await core.localAdminPrincipal(platform), {});
const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
const atOpen = memory();

const settings: Record<string, number> = {};
if (platform.db.dialect === 'sqlite') {
  for (const p of ['mmap_size', 'cache_size']) {
    const r = await sql.raw(`pragma ${p}`).execute(platform.db.kysely);
    settings[p] = Number(Object.values(r.rows[0] as object)[0]);
  }
}

const project = ctx.project.id;
const op = (id: string, input: Record<string, unknown>): Promise<unknown> => core.runOperation(ctx, id, { project, ...input });
// The paths are made one at a time (no array of all N is kept: the process's memory is the server's).
const checks = new Map<string, number>();
// The first 10 answers of each kind of needle (the warm-up calls, never timed ones) are checked against a plain
// substring match over every name.
const find = async (kind: string, q: string): Promise<void> => {
  const r = (await op('files.find', { q, limit: 100 })) as { files: Array<{ path: string }> };
  const seen = checks.get(kind) ?? 0;
  checks.set(kind, seen + 1);
  if (seen >= 10) return;
  const want: string[] = [];
  for (let i = 0; i < args.n; i++) {
    const p = scalePath(args.n, i);
    if (
      p
        .slice(p.lastIndexOf('/') + 1)
        .toLowerCase()
        .includes(q.toLowerCase())
    )
      want.push(p);
  }
  want.sort();
  want.length = Math.min(want.length, 100);
  const got = r.files.map((f) => f.path).sort();
  if (got.length !== want.length || got.some((p, k) => p !== want[k]))
    throw new Error(`files.find "${q}": ${got.length} results, a plain match has ${want.length}`);
};
const pick = (i: number): string => scalePath(args.n, (i * 7919 + 13) % args.n);
const oneName = (i: number): string => `-${String((i * 7919 + 13) % args.n).padStart(7, '0')}.`;

const operations: Array<[string, (i: number) => Promise<unknown>]> = [
  ['list: root, first page (100)', () => op('files.folder', { folder: '', limit: 100 })],
  ['list: "mid" (1,000 files), first page', () => op('files.folder', { folder: 'mid', limit: 100 })],
  ['list: "area-7/sub-0" (250 files), first page', () => op('files.folder', { folder: 'area-7/sub-0', limit: 100 })],
  ['list: "big" (N/10 files), first page', () => op('files.folder', { folder: 'big', limit: 100 })],
  ['find: one name ("-0123456.")', (i) => find('one', oneName(i))],
  ['find: "invoice 2003-" (0.23 %, limit 100)', () => find('prefix', 'invoice 2003-')],
  // The same share of the names, but other rows each call: what a page cache of the rows one needle reads cannot hold.
  ['find: "invoice 20YY-", a year of 27 per call (0.23 % each)', (i) => find('years', `invoice ${2000 + ((i * 7) % 27)}-`)],
  ['find: "report" (6 %, limit 100)', () => find('frequent', 'report')],
  ['find: absent ("zzqx")', () => find('absent', 'zzqx')],
  ['stat: a file', (i) => op('files.stat', { path: pick(i) })],
  [
    'open + read: a file',
    async (i) => {
      const r = (await op('files.download', { path: pick(i) })) as { stream: Readable };
      let bytes = 0;
      for await (const chunk of r.stream) bytes += (chunk as Buffer).length;
      if (bytes !== 12) throw new Error('read a different content');
    },
  ],
  ['usage of the project', () => op('files.usage', {})],
];

const ops = [];
for (const [label, run] of operations) {
  // CPU (user + system) of the timed calls only: `measure` makes 10 warm-up calls first, and those check answers.
  let calls = 0;
  let cpuUs = 0;
  const timed = async (i: number): Promise<void> => {
    const c0 = calls++ >= 10 ? process.cpuUsage() : null;
    await run(i);
    if (c0) {
      const d = process.cpuUsage(c0);
      cpuUs += d.user + d.system;
    }
  };
  const r = await measure(label, timed, args.queries, args.budgetMs);
  ops.push({ ...r, cpuMs: cpuUs / 1000 / r.n });
  process.stderr.write(`  ${label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.n})\n`);
}
// The plan the name search took for "invoice 2003-" (from this process's sample of names, decision 0024).
const { planNameSearch } = await from('packages/core/src/files/name-probe.ts');
const plan = await planNameSearch(platform, 'invoice 2003-', 100);
const atEnd = memory();
await platform.close();
process.stdout.write(JSON.stringify({ openMs, settings, atOpen, atEnd, ops, plan }) + '\n');
