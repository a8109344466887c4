// `npm run test:related [-- FILE…]`: runs the tests that import the given source files, or (with no files) the
// files changed since the last commit, staged or not, and new ones — in seconds rather than the whole suite.
// vitest follows imports (`vitest related`); the acceptance tests in e2e/ run the built `stoa` command and import
// none of the sources, so the e2e tests naming a changed CLI command are listed for you to run too.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const given = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = given.length ? given : [...new Set([...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')])];
const sources = changed.filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && existsSync(f));
if (sources.length === 0) {
  console.log('test:related: no changed source files');
  process.exit(0);
}
const commands = sources.map((f) => /^apps\/cli\/src\/commands\/([\w-]+)\.ts$/.exec(f)?.[1]).filter(Boolean);
if (commands.length) {
  const e2e = readdirSync('e2e').filter((n) => n.endsWith('.test.ts'));
  const hits = e2e.filter((n) => commands.some((c) => readFileSync(`e2e/${n}`, 'utf8').includes(`'${c}'`)));
  if (hits.length) console.log(`test:related: acceptance tests that run the changed commands: ${hits.map((n) => `e2e/${n}`).join(' ')}`);
}
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'related', '--run', '--passWithNoTests', '--maxWorkers=1', ...flags, ...sources], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
