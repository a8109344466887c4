import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-search-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa search (the real binary): one ranked search over wiki, memory and file contents', { timeout: 180_000, shuffle: false }, () => {
  const data = join(tmp, 'data');
  const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);

  it("finds a wiki page and a text file's contents, in Chinese and Russian too, best first with kind, path, snippet and score", async () => {
    const notes = join(tmp, 'notes.md');
    writeFileSync(notes, 'Our 数据库 backups run nightly. Отчёты о резервных копиях лежат здесь.');
    expect((await runStoa(['--data', data, 'files', 'put', notes, 'ops/backups.md'])).code).toBe(0);
    await json('wiki', 'put', 'ops/backup-policy', 'Backups of the 数据库 are kept for 30 days. Каждый отчёт проверяется.', '--title', 'Backup policy');
    const hits = await json('search', 'backup');
    expect(hits.map((h: any) => `${h.kind}:${h.path}`)).toEqual(['wiki:ops/backup-policy', 'file:ops/backups.md']);
    expect(hits[0]).toMatchObject({
      kind: 'wiki',
      path: 'ops/backup-policy',
      title: 'Backup policy',
      snippet: expect.stringMatching(/Backups/),
      score: expect.any(Number),
    });
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
    expect((await json('search', '数据库')).map((h: any) => h.kind).sort()).toEqual(['file', 'wiki']);
    expect((await json('search', 'отчёт')).map((h: any) => h.path).sort()).toEqual(['ops/backup-policy', 'ops/backups.md']);
    expect((await json('search', 'backup', '--kind', 'file')).map((h: any) => h.path)).toEqual(['ops/backups.md']);
  });

  it('follows file moves and deletes, and prints a readable list without --json', async () => {
    expect((await runStoa(['--data', data, 'files', 'mv', 'ops/backups.md', 'archive/backups.md'])).code).toBe(0);
    expect((await json('search', 'nightly')).map((h: any) => h.path)).toEqual(['archive/backups.md']);
    const human = await runStoa(['--data', data, 'search', 'nightly']);
    expect(human.stdout).toMatch(/^\[file\] archive\/backups\.md — backups\.md {2}\(\d/);
    expect(human.stdout).toMatch(/\n\(0 wiki · 0 memory · 1 file · 0 document\)\n$/);
    expect((await runStoa(['--data', data, 'files', 'rm', 'archive/backups.md'])).code).toBe(0);
    expect(await json('search', 'nightly')).toEqual([]);
    const none = await runStoa(['--data', data, 'search', 'nightly']);
    expect([none.code, none.stdout]).toEqual([0, '(no matches)\n']);
    expect(await json('search', '--reindex')).toEqual({ files: 0 });
    const usage = await runStoa(['--data', data, 'search']);
    expect([usage.code, usage.stderr]).toEqual([2, 'error usage: give a QUERY (or --reindex)\n']);
  });

  it('follows the cursors past one page (100) with --limit, and keeps to --kind', async () => {
    const folder = join(tmp, 'many');
    mkdirSync(folder);
    for (let i = 0; i < 105; i++) writeFileSync(join(folder, `wombat-${i}.md`), `wombat number ${i}`);
    expect((await runStoa(['--data', data, 'files', 'put', '-r', folder, 'many'])).code).toBe(0);
    const all = await json('search', 'wombat', '--limit', '150');
    expect(all).toHaveLength(105);
    expect(new Set(all.map((h: any) => h.path)).size).toBe(105);
    expect(await json('search', 'wombat', '--limit', '101')).toHaveLength(101);
    expect(await json('search', 'wombat', '--kind', 'wiki,memory')).toEqual([]);
    const human = await runStoa(['--data', data, 'search', 'wombat', '--limit', '2']);
    expect(human.stdout).toMatch(/\n\(0 wiki · 0 memory · 100\+ file · 0 document\)\n$/);
  });
});
