/**
 * The CLI as a daily tool (§7, issue 14): no data folder appears where `stoa` was run by mistake, `--json`
 * errors a script can parse, shell completion generated from the command tree, and pipes closed early.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, STOA_BIN } from './helpers/run-stoa.js';

const made: string[] = [];
/** A new temporary folder, removed after the file's tests. */
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-daily-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('stoa as a daily tool', () => {
  it('uploads and downloads whole folders with -r, keeping the layout and the history of files already there', async () => {
    const work = fresh();
    const data = join(work, 'data');
    const src = join(work, 'site');
    mkdirSync(join(src, 'docs', 'отчёты'), { recursive: true });
    mkdirSync(join(src, 'empty'));
    writeFileSync(join(src, 'index.md'), '# Home\n');
    writeFileSync(join(src, 'docs', 'guide.md'), 'guide v1');
    writeFileSync(join(src, 'docs', 'отчёты', 'итог.txt'), 'итого 42');
    symlinkSync('/etc', join(src, 'link-to-etc'));

    const noR = await runStoa(['--data', data, 'files', 'put', src, 'site']);
    expect([noR.code, noR.stderr]).toEqual([2, expect.stringContaining('is a folder: add -r')]);

    // The link is not followed: it is reported, everything else is uploaded, and the exit status says so.
    const up = await runStoa(['--data', data, '--json', 'files', 'put', '-r', src, 'site']);
    expect(up.code).toBe(1);
    const result = JSON.parse(up.stdout) as {
      files: Array<{ path: string; version: number }>;
      folders: string[];
      failed: Array<{ path: string; code: string }>;
    };
    expect(result.files.map((f) => f.path).sort()).toEqual(['site/docs/guide.md', 'site/docs/отчёты/итог.txt', 'site/index.md']);
    expect(result.folders).toEqual(['site/empty']);
    expect(result.failed).toEqual([expect.objectContaining({ path: 'link-to-etc', code: 'skipped' })]);

    // Again after an edit, like rsync (issue 32): the changed file gets version 2, the unchanged ones are skipped by
    // their SHA-256 (no new version), and the empty folder that is already there is no error.
    writeFileSync(join(src, 'docs', 'guide.md'), 'guide v2');
    const againRun = await runStoa(['--data', data, '--json', 'files', 'put', '-r', src, 'site']);
    const again = JSON.parse(againRun.stdout) as typeof result & { skipped: string[]; summary: Record<string, number> };
    expect(again.files).toEqual([expect.objectContaining({ path: 'site/docs/guide.md', version: 2 })]);
    expect(again.skipped.sort()).toEqual(['site/docs/отчёты/итог.txt', 'site/index.md']);
    expect(again.summary).toEqual({ sent: 1, skipped: 2, folders: 0, deleted: 0, failed: 1 });
    const versions = await runStoa(['--data', data, '--json', 'files', 'versions', 'site/index.md']);
    expect(JSON.parse(versions.stdout)).toHaveLength(1);

    const out = join(work, 'copy');
    const down = await runStoa(['--data', data, '--json', 'files', 'get', '-r', 'site', out]);
    expect(down.code, down.stderr).toBe(0);
    expect(readFileSync(join(out, 'docs', 'guide.md'), 'utf8')).toBe('guide v2');
    expect(readFileSync(join(out, 'docs', 'отчёты', 'итог.txt'), 'utf8')).toBe('итого 42');
    // Empty folders come back too.
    expect(readdirSync(out).sort()).toEqual(['docs', 'empty', 'index.md']);
    expect(readdirSync(join(out, 'docs')).filter((n) => n.endsWith('.stoa-part'))).toEqual([]);
    const downAgain = JSON.parse((await runStoa(['--data', data, '--json', 'files', 'get', '-r', 'site', out])).stdout);
    expect(downAgain.summary).toEqual({ sent: 0, skipped: 3, folders: 0, deleted: 0, failed: 0 });
  });

  it('put -r and get -r mirror with --delete, and --dry-run changes nothing', async () => {
    const work = fresh();
    const data = join(work, 'data');
    const src = join(work, 'src');
    mkdirSync(join(src, 'keep', 'empty'), { recursive: true });
    writeFileSync(join(src, 'keep', 'a.txt'), 'a');
    writeFileSync(join(src, 'gone.txt'), 'soon gone');
    mkdirSync(join(src, 'old', 'deeper'), { recursive: true });
    const stoa = async (...args: string[]) => {
      const r = await runStoa(['--data', data, '--json', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect((await stoa('files', 'put', '-r', src, 'm')).summary).toEqual({ sent: 2, skipped: 0, folders: 2, deleted: 0, failed: 0 });
    rmSync(join(src, 'gone.txt'));
    rmSync(join(src, 'old'), { recursive: true });
    writeFileSync(join(src, 'new.txt'), 'new');

    const dry = await stoa('files', 'put', '-r', '--delete', '--dry-run', src, 'm');
    expect(dry).toMatchObject({ dryRun: true, summary: { sent: 1, skipped: 1, deleted: 3 } });
    expect(dry.deleted).toEqual(['m/gone.txt', 'm/old/deeper/', 'm/old/']);
    expect((await stoa('files', 'ls', 'm')).map((f: { path: string }) => f.path).sort()).toEqual(['m/gone.txt', 'm/keep/a.txt']);

    const real = await stoa('files', 'put', '-r', '--delete', src, 'm');
    expect(real).toMatchObject({ dryRun: false, summary: { sent: 1, skipped: 1, deleted: 3, failed: 0 } });
    expect((await stoa('files', 'ls', 'm')).map((f: { path: string }) => f.path).sort()).toEqual(['m/keep/a.txt', 'm/new.txt']);

    // get -r --delete makes a local copy the same as the server's, empty folders included.
    const out = join(work, 'out');
    mkdirSync(join(out, 'stray-folder'), { recursive: true });
    writeFileSync(join(out, 'stray.txt'), 'not on the server');
    const dryDown = await stoa('files', 'get', '-r', '--delete', '--dry-run', 'm', out);
    expect(dryDown.summary).toMatchObject({ sent: 2, folders: 1, deleted: 2 });
    expect(readdirSync(out).sort()).toEqual(['stray-folder', 'stray.txt']);
    const down = await stoa('files', 'get', '-r', '--delete', 'm', out);
    expect(down.summary).toEqual({ sent: 2, skipped: 0, folders: 1, deleted: 2, failed: 0 });
    expect(readdirSync(out).sort()).toEqual(['keep', 'new.txt']);
    expect(readdirSync(join(out, 'keep')).sort()).toEqual(['a.txt', 'empty']);
    const usage = await runStoa(['--data', data, 'files', 'put', '--dry-run', join(src, 'new.txt'), 'x.txt']);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('--dry-run and --delete go with -r')]);
  });

  it('refuses to create a data folder where it was run without --data or --url, and uses ./stoa-data once it exists', async () => {
    const cwd = fresh();
    const r = await runStoa(['files', 'ls'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error usage: no data folder here: give --data DIR/);
    expect(existsSync(join(cwd, 'stoa-data'))).toBe(false);
    // --data creates the folder; afterwards the same command finds ./stoa-data by itself.
    expect((await runStoa(['--data', './stoa-data', 'files', 'put', '-', 'hello.md'], { cwd, input: 'hi' })).code).toBe(0);
    const ls = await runStoa(['--json', 'files', 'ls'], { cwd });
    expect(ls.code, ls.stderr).toBe(0);
    expect((JSON.parse(ls.stdout) as Array<{ path: string }>).map((f) => f.path)).toEqual(['hello.md']);
    // Inside the data folder itself, too.
    expect((await runStoa(['files', 'ls'], { cwd: join(cwd, 'stoa-data') })).stdout).toContain('hello.md');
  });

  it('with --json, an error is one JSON object on stderr with the stable code, and the exit status says it failed', async () => {
    const data = fresh();
    const missing = await runStoa(['--data', data, '--json', 'files', 'get', 'nope.md', join(data, 'out')]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toEqual({ error: { code: 'not_found', message: 'file "nope.md" does not exist' } });
    const usage = await runStoa(['--json', 'files', 'ls'], { cwd: fresh() });
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr).error.code).toBe('usage');
    // Without --json: the line people read.
    expect((await runStoa(['--data', data, 'files', 'get', 'nope.md', join(data, 'out')])).stderr).toBe('error not_found: file "nope.md" does not exist\n');
  });

  it('prints completion scripts for bash, zsh and fish from the command tree; bash completes commands and options', async () => {
    const bash = (await runStoa(['completion', 'bash'])).stdout;
    const dir = fresh();
    writeFileSync(join(dir, 'c.bash'), bash);
    const complete = (...words: string[]) =>
      execFileSync(
        'bash',
        ['-c', `source c.bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _stoa; echo "\${COMPREPLY[@]}"`],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      ).trim();
    expect(complete('stoa', 'fi')).toBe('files');
    expect(complete('stoa', '--json', 'files', 'mk')).toBe('mkdir');
    expect(complete('stoa', 'memory', 'ap')).toBe('append');
    expect(complete('stoa', 'files', 'put', '--da')).toBe('--data');
    expect((await runStoa(['completion', 'zsh'])).stdout).toMatch(/^#compdef stoa\n[\s\S]*bashcompinit[\s\S]*complete -o default -F _stoa stoa/);
    const fish = (await runStoa(['completion', 'fish'])).stdout;
    expect(fish).toContain("-a 'files' -d");
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from wiki.*' -a 'put'/);
    const bad = await runStoa(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
  });

  it('ends quietly when its output pipe is closed early', () => {
    const out = execFileSync('bash', ['-c', `set -o pipefail; node ${STOA_BIN} completion fish | head -n 1; echo "status \${PIPESTATUS[0]}"`], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/^# stoa completion for fish[^\n]*\nstatus 0\n$/);
  });
});
