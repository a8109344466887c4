import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-undo-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// B11 through the real `stoa` command (local mode): an agent changes files in a conversation, a person changes one
// after; `conversations changes` shows the diff, `conversations revert` undoes the rest and refuses that one.
describe('stoa conversations changes / revert (the real binary)', { timeout: 300_000 }, () => {
  it('reviews a conversation as one diff and undoes it, refusing the file someone changed since', async () => {
    const data = join(tmp, 'data');
    const stoa = (...args: string[]) => runStoa(['--data', data, ...args]);
    const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);
    const local = (name: string, text: string) => {
      const p = join(tmp, name);
      writeFileSync(p, text);
      return p;
    };
    const a = await json('agents', 'create', 'Scribe', '--files', 'on', '--write', 'project');
    const conv = await json('conversations', 'create', '--members', a.id);
    await json('files', 'put', local('plan0', 'plan v1\n'), 'plan.md');
    await json('files', 'put', local('notes0', 'notes v1\n'), 'notes.md');
    const asAgent = (...args: string[]) => stoaJson(['--data', data, '--agent', a.id, '--conversation', conv.id, ...args, '--json']);
    await asAgent('files', 'put', local('plan1', 'plan by agent\n'), 'plan.md');
    await asAgent('files', 'put', local('notes1', 'notes by agent\n'), 'notes.md');
    await asAgent('files', 'put', local('new1', 'new by agent\n'), 'new.md');
    await json('files', 'put', local('notes2', 'notes fixed by admin\n'), 'notes.md');

    const review = await stoa('conversations', 'changes', conv.id);
    expect(review.code).toBe(0);
    expect(review.stdout).toContain('REVERTIBLE  file plan.md  v1 → v2, now v2');
    expect(review.stdout).toContain('-plan v1\n+plan by agent');
    expect(review.stdout).toContain('CONFLICT  file notes.md  v1 → v2, now v3');

    const undo = await json('conversations', 'revert', conv.id);
    expect(Object.fromEntries(undo.results.map((r: any) => [r.ref, r.status]))).toEqual({
      'file:plan.md': 'reverted',
      'file:notes.md': 'conflict',
      'file:new.md': 'reverted',
    });
    expect((await stoa('files', 'get', 'plan.md', '-')).stdout).toBe('plan v1\n');
    expect((await stoa('files', 'get', 'notes.md', '-')).stdout).toBe('notes fixed by admin\n');
    expect((await stoa('files', 'stat', 'new.md')).code).toBe(1);
    expect((await json('files', 'versions', 'plan.md')).map((v: any) => v.version)).toEqual([3, 2, 1]);

    const again = await stoa('conversations', 'revert', conv.id, '--item', 'file:notes.md');
    expect(again.stdout).toContain('0 of 1 reverted.');
    const bad = await stoa('conversations', 'revert', conv.id, '--item', 'file:nope.md');
    expect([bad.code, bad.stderr.trim()]).toEqual([1, 'error bad_request: not a change of this conversation: file:nope.md']);
  });
});
