/**
 * `npm run bench`: every benchmark of bench/ in one run, one after another (they measure side by side within
 * themselves, so running them in sequence keeps one from loading the machine under another), each bounded in
 * time. Their Markdown tables are gathered into bench/results/<UTC date and time>.md with the machine, the
 * commit, each benchmark's command, duration and exit status; bench/README.md explains the figures. Every aim of
 * issue 30 a benchmark measured (bench/lib/aims.ts) is gathered at the top, with its line and whether this run met
 * it.
 *
 *   npm run bench                      # all (≈ 30 min on 2 cores)
 *   npm run bench -- --only search,mcp # some, by name
 *   npm run bench -- --quick           # smaller sizes where a benchmark takes one (≈ 10 min)
 *   npm run bench -- --only search-pg-100k   # PostgreSQL search at 100,000 pages (≈ 30 min; not in the default run)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aimsTable, parseAims } from '../bench/lib/aims.js';

interface Bench {
  name: string;
  script: string;
  args: string[];
  quickArgs?: string[];
  env?: Record<string, string>;
  /** Longest it may run before it is stopped and reported as such. */
  minutes: number;
  /** Run only when named with `--only` (too long for the default run). */
  optIn?: boolean;
}

const BENCHES: Bench[] = [
  { name: 'startup', script: 'bench/startup.ts', args: [], quickArgs: ['--rounds', '5'], minutes: 5 },
  { name: 'files', script: 'bench/files-http.ts', args: [], env: {}, minutes: 10 },
  { name: 'blob', script: 'bench/blob-fs.ts', args: [], minutes: 5 },
  { name: 'db-statements', script: 'bench/db-statements.ts', args: [], minutes: 5 },
  { name: 'files-large', script: 'bench/files-large.ts', args: [], minutes: 10 },
  { name: 'files-100k', script: 'bench/files-100k.ts', args: [], minutes: 10 },
  { name: 'scale', script: 'bench/files-scale.ts', args: [], quickArgs: ['--sizes', '10000,100000'], minutes: 30 },
  { name: 'mcp', script: 'bench/mcp-stdio.ts', args: [], minutes: 10 },
  { name: 'memory', script: 'bench/memory-append.ts', args: [], minutes: 10 },
  { name: 'mixed', script: 'bench/mixed.ts', args: [], quickArgs: ['--seconds', '8', '--docs', '300'], minutes: 15 },
  { name: 'search', script: 'bench/search-quality.ts', args: [], minutes: 10 },
  { name: 'search-speed', script: 'bench/search-speed.ts', args: [], quickArgs: ['20000', '200'], minutes: 15 },
  // Issue 30 item 4 on PostgreSQL (needs the server of the test runs, 127.0.0.1:5432): the tail and the size at 10k,
  // and the tail at 100k pages, whose build takes ≈ 25 min on 2 cores.
  {
    name: 'search-pg',
    script: 'bench/search-speed.ts',
    args: ['10000', '300', '--pg', '--pg-batch=500', '--no-minisearch'],
    quickArgs: ['5000', '200', '--pg', '--pg-batch=500', '--no-minisearch'],
    minutes: 15,
  },
  {
    name: 'search-pg-100k',
    script: 'bench/search-speed.ts',
    args: ['100000', '300', '--pg', '--pg-batch=500', '--no-minisearch'],
    minutes: 45,
    optIn: true,
  },
  { name: 'hybrid', script: 'bench/search-hybrid.ts', args: [], quickArgs: ['20000', '100', '--speed'], minutes: 15 },
  { name: 'parse', script: 'bench/parse-isolation.ts', args: [], minutes: 10 },
  { name: 'attacks', script: 'bench/attacks.ts', args: [], quickArgs: ['--seconds', '4'], minutes: 10 },
  { name: 'dav', script: 'bench/dav-rclone.ts', args: [], minutes: 10 },
  { name: 'web', script: 'bench/web.ts', args: [], quickArgs: ['--rounds', '2'], minutes: 10 },
];

const REPO = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',').filter(Boolean)) : null;
if (only)
  for (const n of only) if (!BENCHES.some((b) => b.name === n)) throw new Error(`no benchmark "${n}"; there are ${BENCHES.map((b) => b.name).join(', ')}`);

/** Where the benchmarks of this run record their aims (bench/lib/aims.ts), one JSON line each. */
const aimsDir = mkdtempSync(join(tmpdir(), 'stoa-bench-aims-'));
const aimsFile = join(aimsDir, 'aims.jsonl');

function run(b: Bench): Promise<{ code: number | null; out: string; seconds: number; timedOut: boolean }> {
  const started = performance.now();
  const args = ['--import', 'tsx', b.script, ...(quick && b.quickArgs ? b.quickArgs : b.args)];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      env: { ...process.env, ...b.env, BENCH_AIMS_FILE: aimsFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      out.push(c);
      process.stdout.write(c);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, b.minutes * 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(out).toString('utf8'), seconds: (performance.now() - started) / 1000, timedOut });
    });
  });
}

const commit = await new Promise<string>((resolve) => {
  const git = spawn('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO });
  let s = '';
  git.stdout.on('data', (c: Buffer) => (s += c.toString()));
  git.on('close', () => resolve(s.trim() || 'unknown'));
  git.on('error', () => resolve('unknown'));
});
const stamp = new Date()
  .toISOString()
  .replace(/:\d\d\.\d+Z$/, 'Z')
  .replace(':', '');
const sections: string[] = [
  `# Benchmarks of ${stamp} (commit ${commit}${quick ? ', --quick' : ''})`,
  '',
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. What each figure means: bench/README.md.`,
  '',
];
const summary: string[] = ['| benchmark | status | seconds |', '| --- | --- | --- |'];
for (const b of BENCHES.filter((x) => (only ? only.has(x.name) : !x.optIn))) {
  console.error(`\n== ${b.name} (${b.script})`);
  const r = await run(b);
  const status = r.timedOut ? `stopped after ${b.minutes} min` : r.code === 0 ? 'ok' : `failed (exit ${r.code})`;
  summary.push(`| ${b.name} | ${status} | ${r.seconds.toFixed(0)} |`);
  sections.push(
    `## ${b.name}`,
    '',
    `\`node --import tsx ${b.script} ${(quick && b.quickArgs ? b.quickArgs : b.args).join(' ')}\` — ${status}, ${r.seconds.toFixed(0)} s`,
    '',
    r.out.trim(),
    '',
  );
}
const aims = (() => {
  try {
    return parseAims(readFileSync(aimsFile, 'utf8'));
  } catch {
    return [];
  }
})();
rmSync(aimsDir, { recursive: true, force: true });
const aimsSection = aims.length ? ["## Issue 30's aims in this run", '', ...aimsTable(aims), ''] : [];
mkdirSync(`${REPO}/bench/results`, { recursive: true });
const file = `bench/results/${stamp}.md`;
writeFileSync(`${REPO}/${file}`, [...sections.slice(0, 4), ...summary, '', ...aimsSection, ...sections.slice(4)].join('\n') + '\n');
if (aims.length) console.error(['', ...aimsTable(aims)].join('\n'));
console.error(`\nWrote ${file}`);
if (summary.some((l) => l.includes('failed') || l.includes('stopped'))) process.exitCode = 1;
