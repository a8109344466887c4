/**
 * Scale you can see (issue 30, item 5): projects of 10,000, 100,000 and 1,000,000 files on SQLite and
 * PostgreSQL; for each size, p50/p99 of listing a folder, finding by name, stat, read and usage through the
 * operation runner (`runOperation`, what every HTTP route calls), the build time and the database size; then
 * per operation how its cost grows from one size to the next (100k ÷ 10k, 1M ÷ 100k).
 *
 *   npm run bench:scale
 *   npm run bench:scale -- --sizes 10000,100000        # (also BENCH_SCALE_SIZES)
 *   BENCH_SCALE_ENGINES=sqlite npm run bench:scale
 *
 * The tree, for N files: 50 in the root; `big` with N/10 files; `mid` with 1,000 at every size; the rest in
 * folders `area-A/sub-S` of 250 files each (3,600 of them at 1M). Rows go in through bench/lib/many-files.ts
 * (the rows a file write leaves, set-based). The `files.find` answers of the warm-up runs are checked against a
 * plain substring match over all names; every read returns the seed's bytes.
 */
import { runOperation, type Ctx } from '@stoa/core/testing';
import { createTestPlatform } from '@stoa/core/testing';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import { baseName, fillProject, measure, type Measured } from './lib/many-files.js';
import { scaleLayout } from './lib/scale-tree.js';
import { fmt, msSince } from './lib/stats.js';

const sizesAt = process.argv.indexOf('--sizes');
const SIZES = (sizesAt > 0 ? process.argv[sizesAt + 1]! : (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000')).split(',').map(Number);
const ENGINES = (process.env.BENCH_SCALE_ENGINES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BUDGET_MS = Number(process.env.BENCH_QUERY_BUDGET_MS ?? 15_000);

async function consume(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

async function dbBytes(ctx: Ctx, file: string | undefined): Promise<number> {
  if (ctx.platform.db.dialect === 'postgres') {
    const r = await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(ctx.platform.db.kysely);
    return Number(r.rows[0]!.n);
  }
  await sql`pragma wal_checkpoint(truncate)`.execute(ctx.platform.db.kysely);
  return statSync(file!).size;
}

/**
 * Name search as it was before the trigram probe (issue 30 item 5), the query alone: SQLite probed the FTS5
 * index with the whole needle as a phrase (up to 1,000 candidates read by ID, else a scan in path order);
 * PostgreSQL ran `name_lower LIKE '%needle%'`, which pg_trgm takes with every trigram of the needle.
 */
async function oldFind(ctx: Ctx, text: string, limit: number): Promise<number> {
  const db = ctx.platform.db.kysely;
  const needle = text.toLowerCase();
  const like = sql<string>`${'%' + needle.replace(/[\\%_]/g, (c) => '\\' + c) + '%'} escape '\\'`;
  let ids: string[] | null = null;
  if (ctx.platform.db.dialect === 'sqlite' && [...needle].length >= 3) {
    const rows = await sql<{
      rowid: number;
    }>`select rowid from files_name_fts where files_name_fts match ${`"${needle.replace(/"/g, '""')}"`} limit 1001`.execute(db);
    if (rows.rows.length <= 1000) {
      if (rows.rows.length === 0) return 0;
      ids = (await sql<{ file_id: string }>`select file_id from files_name_ids where id in (${sql.join(rows.rows.map((r) => r.rowid))})`.execute(db)).rows.map(
        (r) => r.file_id,
      );
    }
  }
  let q = db.selectFrom('files').selectAll();
  q = ids ? q.where('id', 'in', ids).where(sql`+project_id`, '=', ctx.project.id) : q.where('project_id', '=', ctx.project.id);
  const rows = await q
    .where('name_lower', 'like', like)
    .orderBy('path')
    .limit(limit + 1)
    .execute();
  return rows.length;
}

/** The count the old `usage` (folder null) and `listFolder` total ran, alone. */
async function countFiles(ctx: Ctx, folder: string | null): Promise<number> {
  let q = ctx.platform.db.kysely
    .selectFrom('files')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', ctx.project.id);
  if (folder !== null) q = q.where('dir', '=', folder);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

interface SizeRun {
  n: number;
  buildS: number;
  dbMb: number;
  ops: Measured[];
  load: string;
}

/** The operations, each through the operation runner as the HTTP routes call it. */
function operations(ctx: Ctx, paths: string[]): Array<{ label: string; run: (i: number) => Promise<unknown> }> {
  const project = ctx.project.id;
  const op = (id: string, input: Record<string, unknown>): Promise<unknown> => runOperation(ctx, id, { project, ...input });
  const names = paths.map((p) => ({ path: p, lower: baseName(p).toLowerCase() }));
  const calls = new Map<string, number>();
  const find = async (kind: string, q: string, limit: number): Promise<void> => {
    const r = (await op('files.find', { q, limit })) as { files: Array<{ path: string }> };
    // The check scans every name in JS, so only the 10 warm-up calls of each kind are checked (never timed ones).
    const seen = calls.get(kind) ?? 0;
    calls.set(kind, seen + 1);
    if (seen >= 10) return;
    const want = names
      .filter((x) => x.lower.includes(q.toLowerCase()))
      .map((x) => x.path)
      .sort()
      .slice(0, limit);
    const got = r.files.map((f) => f.path).sort();
    if (got.length !== want.length || got.some((p, k) => p !== want[k]))
      throw new Error(`files.find "${q}": ${got.length} results, a plain match has ${want.length}`);
  };
  // A fixed pseudo-random walk over the files, the same at every size relative to N.
  const pick = (i: number): string => paths[(i * 7919 + 13) % paths.length]!;
  const n = paths.length;
  const baseline = process.env.BENCH_NO_BASELINE !== '1';
  return [
    { label: 'list: root, first page (100)', run: () => op('files.folder', { folder: '', limit: 100 }) },
    { label: 'list: "mid" (1,000 files), first page', run: () => op('files.folder', { folder: 'mid', limit: 100 }) },
    { label: 'list: "area-7/sub-0" (250 files), first page', run: () => op('files.folder', { folder: 'area-7/sub-0', limit: 100 }) },
    { label: 'list: "big" (N/10 files), first page', run: () => op('files.folder', { folder: 'big', limit: 100 }) },
    { label: 'list: "area-7" (subfolders only)', run: () => op('files.folder', { folder: 'area-7', limit: 100 }) },
    { label: 'find: one name, substring ("-0123456.")', run: (i) => find('one', `-${String((i * 7919 + 13) % n).padStart(7, '0')}.`, 100) },
    ...(baseline
      ? [
          {
            label: '&nbsp;&nbsp;before: one name, the whole needle probed',
            run: (i: number) => oldFind(ctx, `-${String((i * 7919 + 13) % n).padStart(7, '0')}.`, 100),
          },
        ]
      : []),
    { label: 'find: prefix "invoice 2003-" (0.23 % of names, limit 100)', run: () => find('prefix', 'invoice 2003-', 100) },
    ...(baseline ? [{ label: '&nbsp;&nbsp;before: "invoice 2003-", the whole needle probed', run: () => oldFind(ctx, 'invoice 2003-', 100) }] : []),
    { label: 'find: frequent prefix "report" (6 %, limit 100)', run: () => find('frequent', 'report', 100) },
    ...(baseline ? [{ label: '&nbsp;&nbsp;before: "report", the whole needle probed', run: () => oldFind(ctx, 'report', 100) }] : []),
    { label: 'find: absent ("zzqx")', run: () => find('absent', 'zzqx', 100) },
    ...(baseline ? [{ label: '&nbsp;&nbsp;before: "zzqx", the whole needle probed', run: () => oldFind(ctx, 'zzqx', 100) }] : []),
    { label: 'stat: a file', run: (i) => op('files.stat', { path: pick(i) }) },
    {
      label: 'open + read: a file',
      run: async (i) => {
        const r = (await op('files.download', { path: pick(i) })) as { stream: Readable };
        if ((await consume(r.stream)) !== 12) throw new Error('read a different content');
      },
    },
    { label: 'usage of the project', run: () => op('files.usage', {}) },
    // The counts as they were before this bench (a count of every row of the project or the folder), in the
    // same run, for the before/after comparison: what those two operations cost then, less the rest of them.
    ...(process.env.BENCH_NO_BASELINE === '1'
      ? []
      : [
          { label: '&nbsp;&nbsp;before: usage counted every file row', run: () => countFiles(ctx, null) },
          { label: '&nbsp;&nbsp;before: "big" page counted the folder\'s rows', run: () => countFiles(ctx, 'big') },
        ]),
  ];
}

async function runSize(kind: 'sqlite' | 'postgres', n: number): Promise<SizeRun> {
  const t = await createTestPlatform(kind, { quotaBytes: 2 ** 50 });
  try {
    const ctx = await t.admin();
    const paths = scaleLayout(n);
    const t0 = process.hrtime.bigint();
    let shown = 0;
    await fillProject(ctx, paths, (done) => {
      if (done - shown >= 100_000) {
        shown = done;
        process.stderr.write(`${kind} ${n}: ${done} rows in ${fmt(msSince(t0) / 1000, 0)} s\n`);
      }
    });
    const buildS = msSince(t0) / 1000;
    const file = t.platform.config.database.kind === 'sqlite' ? t.platform.config.database.file : undefined;
    const dbMb = (await dbBytes(ctx, file)) / 2 ** 20;
    const ops: Measured[] = [];
    for (const o of operations(ctx, paths)) {
      const r = await measure(o.label, o.run, QUERIES, BUDGET_MS);
      ops.push(r);
      process.stderr.write(`${kind} ${n}: ${r.label}: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms (${r.n})\n`);
    }
    return {
      n,
      buildS,
      dbMb,
      ops,
      load: loadavg()
        .map((x) => x.toFixed(1))
        .join(' '),
    };
  } finally {
    await t.cleanup();
  }
}

const k = (n: number): string => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
const grow = (a: number, b: number): string => (a > 0 && Number.isFinite(a) && Number.isFinite(b) ? `${(b / a).toFixed(2)}×` : '–');

const out: string[] = [];
for (const kind of ENGINES) {
  const runs: SizeRun[] = [];
  for (const n of SIZES) runs.push(await runSize(kind, n));
  const title = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  out.push(`### ${title}: p50 / p99 in ms, up to ${QUERIES} operations (or ${BUDGET_MS / 1000} s) each, through runOperation`, '');
  const head = ['operation', ...runs.map((r) => `${k(r.n)} p50 / p99`), ...runs.slice(1).map((r, i) => `p50 ${k(r.n)}÷${k(runs[i]!.n)}`)];
  out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  // One row: the label, a cell per size, then the growth from each size to the next.
  const row = (label: string, cell: (r: SizeRun) => string, value: (r: SizeRun) => number): string =>
    `| ${[label, ...runs.map(cell), ...runs.slice(1).map((r, i) => grow(value(runs[i]!), value(r)))].join(' | ')} |`;
  runs[0]!.ops.forEach((o, idx) => {
    out.push(
      row(
        o.label,
        (r) => `${fmt(r.ops[idx]!.p50, 2)} / ${fmt(r.ops[idx]!.p99, 2)}`,
        (r) => r.ops[idx]!.p50,
      ),
    );
  });
  out.push(
    row(
      'build (s)',
      (r) => fmt(r.buildS, 1),
      (r) => r.buildS,
    ),
  );
  out.push(
    row(
      'database (MB)',
      (r) => fmt(r.dbMb, 1),
      (r) => r.dbMb,
    ),
  );
  out.push('', `Load average after each size: ${runs.map((r) => `${k(r.n)} ${r.load}`).join('; ')}.`, '');
}
process.stdout.write(out.join('\n') + '\n');
