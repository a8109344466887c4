// `npm run test:related [-- FILE…] [--deep]`: the tests of what you changed — the given files, or (with none) the
// files changed since the last commit, staged or not, and new ones.
//
// By default, in seconds: the tests that import a changed file by a relative path (the tests beside the code,
// `x.test.ts` and its neighbours), and the acceptance tests in e2e/ that run a changed CLI command (they run the
// built `stoa` command and import no sources). `--deep` hands the files to `vitest related` instead, which follows
// every import: complete, but a change in packages/core reaches nearly the whole suite, because every door imports
// the core's index — minutes, not seconds.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const args = process.argv.slice(2);
const deep = args.includes('--deep');
const given = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-') && a !== '--deep');
const git = (...a) => execFileSync('git', a, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = given.length ? given : [...new Set([...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')])];
const sources = changed.filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && existsSync(f)).map((f) => normalize(f));
if (sources.length === 0) {
  console.log('test:related: no changed source files');
  process.exit(0);
}
const vitest = (...a) => spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', ...a], { stdio: 'inherit' }).status ?? 1;
if (deep) process.exit(vitest('related', '--run', '--passWithNoTests', ...flags, ...sources));

/** Every test file under the given folders. */
function testsUnder(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) testsUnder(p, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}
const tests = ['packages', 'apps', 'e2e', 'bench'].filter(existsSync).flatMap((d) => testsUnder(d));
const wanted = new Set(sources.map((s) => s.replace(/\.(tsx?|mjs|js)$/, '')));
const picked = new Set(sources.filter((s) => /\.test\.tsx?$/.test(s)));
for (const t of tests) {
  const text = readFileSync(t, 'utf8');
  for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/g)) {
    const target = normalize(join(dirname(t), m[1] ?? m[2])).replace(/\.(tsx?|mjs|js)$/, '');
    if (wanted.has(target)) picked.add(t);
  }
}
// Acceptance tests: those that run a changed `stoa` command.
const commands = sources.map((f) => /^apps\/cli\/src\/commands\/([\w-]+)\.ts$/.exec(f)?.[1]).filter(Boolean);
for (const t of tests.filter((t) => t.startsWith('e2e/'))) if (commands.some((c) => readFileSync(t, 'utf8').includes(`'${c}'`))) picked.add(t);
if (picked.size === 0) {
  console.log('test:related: no test imports these files directly; try --deep, or grep e2e/ for the route or command');
  process.exit(0);
}
console.log(`test:related: ${[...picked].map((p) => relative('.', p)).join(' ')}`);
process.exit(vitest('run', '--maxWorkers=2', ...flags, ...picked));
