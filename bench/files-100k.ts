/**
 * 100,000 files in one project (issue 2, "Benchmarks"): a folder page (listFolder, limit 100) and a name search
 * (findFiles, substring), p50/p99 over 200 queries of each kind, through the core API in-process, on SQLite and
 * (with BENCH_PG=1) on PostgreSQL in a database created for the run and dropped afterwards.
 *
 *   node --import tsx bench/files-100k.ts
 *   BENCH_PG=1 node --import tsx bench/files-100k.ts
 *   BENCH_100K_FILES=20000 node --import tsx bench/files-100k.ts
 *
 * How the files get in: bench/lib/many-files.ts (one file through putFile, the others as copies of its rows,
 * set-based, with the folder index and the usage counter to match). Every answer of findFiles is checked against a plain
 * substring match over the list of names.
 */
import { findFiles, listFolder, toFileInfo, type FileRow } from '@stoa/core/testing';
import { createTestPlatform } from '@stoa/core/testing';
import { sql } from 'kysely';
import { baseName, fillProject, manyFilesName, measure } from './lib/many-files.js';
import { fmt, msSince } from './lib/stats.js';

const N = Number(process.env.BENCH_100K_FILES ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const KINDS: Array<'sqlite' | 'postgres'> = process.env.BENCH_PG === '1' ? ['sqlite', 'postgres'] : ['sqlite'];

/** The file layout: 50 files in the root, 20,000 in one big folder, the rest spread over 50 × 40 folders. */
function layout(n: number): string[] {
  const paths: string[] = [];
  const name = (i: number): string => manyFilesName(i, 6);
  for (let i = 0; paths.length < n; i++) {
    if (i < 50) paths.push(name(i));
    else if (i < 50 + Math.min(20_000, Math.floor(n / 5))) paths.push(`big/${name(i)}`);
    else paths.push(`area-${i % 50}/sub-${Math.floor(i / 50) % 40}/${name(i)}`);
  }
  return paths;
}

interface Q {
  label: string;
  run: (i: number) => Promise<unknown>;
}

/** Per kind of query: at most QUERIES queries or BUDGET_MS of them, whichever comes first (bounded runs). */
const BUDGET_MS = Number(process.env.BENCH_QUERY_BUDGET_MS ?? 15_000);

const out: string[] = [];
for (const kind of KINDS) {
  const t = await createTestPlatform(kind, { quotaBytes: 1 << 40 });
  try {
    const ctx = await t.admin();
    const paths = layout(N);
    const t0 = process.hrtime.bigint();
    await fillProject(ctx, paths);
    const fillMs = msSince(t0);
    const names = paths.map((p) => ({ path: p, lower: baseName(p).normalize('NFC').toLowerCase() }));
    const expected = (needle: string, limit: number): string[] => {
      const n = needle.normalize('NFC').toLowerCase();
      return names
        .filter((x) => x.lower.includes(n))
        .map((x) => x.path)
        .sort()
        .slice(0, limit);
    };
    const bigNames = paths
      .filter((p) => p.startsWith('big/'))
      .map(baseName)
      .sort();
    const find = (label: string, needles: string[], limit: number): Q => {
      const want = new Map(needles.map((n) => [n, expected(n, limit)]));
      let checked = false;
      return {
        label: `find "${needles.join('", "')}" (limit ${limit})`,
        run: async (i) => {
          const needle = needles[i % needles.length]!;
          const r = await findFiles(ctx, { text: needle, limit });
          if (!checked || i < needles.length) {
            const got = r.files.map((f) => f.path).sort();
            const exp = want.get(needle)!;
            if (got.length !== exp.length || got.some((p, k) => p !== exp[k]))
              throw new Error(`findFiles("${needle}") differs from a plain substring match: ${got.length} vs ${exp.length} results`);
            if (i === needles.length - 1) checked = true;
          }
          void label;
        },
      };
    };
    // The name search as it was before migration 006 (a LIKE over every name of the project), same run, for a
    // before/after comparison.
    const oldFind = (needles: string[], limit: number): Q => ({
      label: `  the same without the name index (pre-006 query)`,
      run: async (i) => {
        const needle = needles[i % needles.length]!.normalize('NFC').toLowerCase();
        await ctx.platform.db.kysely
          .selectFrom('files')
          .selectAll()
          .where('project_id', '=', ctx.project.id)
          .where('name_lower', 'like', sql<string>`${'%' + needle.replace(/[\\%_]/g, (c) => '\\' + c) + '%'} escape '\\'`)
          .orderBy('path')
          .limit(limit + 1)
          .execute()
          .then((rows) => rows.slice(0, limit).map((r) => toFileInfo(r as FileRow)));
      },
    });
    const withOld = (q: Q, needles: string[], limit: number): Q[] =>
      kind === 'sqlite' && process.env.BENCH_NO_BASELINE !== '1' ? [q, oldFind(needles, limit)] : [q];
    // Cursors are sealed by the listing (not a bare name): the ones of every page of "big", gathered once.
    const bigCursors: string[] = [];
    for (let c: string | null = null; ;) {
      c = (await listFolder(ctx, { folder: 'big', limit: 100, cursor: c })).nextCursor;
      if (!c) break;
      bigCursors.push(c);
    }
    const queries: Q[] = [
      { label: 'folder: root, first page', run: () => listFolder(ctx, { folder: '', limit: 100 }) },
      { label: `folder: "big" (${bigNames.length} files), first page`, run: () => listFolder(ctx, { folder: 'big', limit: 100 }) },
      {
        label: 'folder: "big", a page at a random cursor',
        run: (i) => listFolder(ctx, { folder: 'big', limit: 100, cursor: bigCursors[(i * 7919) % bigCursors.length]! }),
      },
      { label: 'folder: "area-7/sub-3" (~40 files)', run: () => listFolder(ctx, { folder: 'area-7/sub-3', limit: 100 }) },
      ...withOld(find('frequent', ['report', 'photo', 'notes'], 100), ['report', 'photo', 'notes'], 100),
      ...withOld(find('frequent', ['report'], 1000), ['report'], 1000),
      ...withOld(find('rare', ['012345', '099999', '-000777.'], 100), ['012345', '099999', '-000777.'], 100),
      ...withOld(find('none', ['zzqx', 'nothing-here'], 100), ['zzqx', 'nothing-here'], 100),
      ...withOld(find('cyrillic', ['отчёт', 'ПРОТОКОЛ'], 100), ['отчёт', 'ПРОТОКОЛ'], 100),
      find('cjk', ['纪要', '设计'], 100),
    ];
    out.push(
      `### ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${N.toLocaleString('en')} files (filled in ${fmt(fillMs / 1000, 1)} s), up to ${QUERIES} queries (or ${BUDGET_MS / 1000} s) each, in-process core API, ms`,
      '',
    );
    out.push('| query | queries | p50 | p99 | mean |', '|---|---|---|---|---|');
    for (const q of queries) {
      const r = await measure(q.label, q.run, QUERIES, BUDGET_MS);
      out.push(`| ${r.label} | ${r.n} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.mean, 2)} |`);
      process.stderr.write(`${kind}: ${r.label}: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms\n`);
    }
    out.push('');
  } finally {
    await t.cleanup();
  }
}
process.stdout.write(out.join('\n'));
