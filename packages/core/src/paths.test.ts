import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { isStoaError } from '@stoa/contract';
import { normalizePath, isInside } from './paths.js';
import { moveTarget as moveTargetForTest } from './files/move-file.js';
import { createTestPlatform, type TestPlatform } from './testing.js';
import { putFile } from './files/put-file.js';
import { statFile } from './files/read-file.js';
import { listFilesRecursive } from './files/list-files.js';
import type { Ctx } from './platform.js';

function refusal(input: string): string {
  try {
    normalizePath(input);
  } catch (e) {
    if (isStoaError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
}

const seg = (n: number) => 'a'.repeat(n);

// F1, one row per rule, each with its own message.
const refused: Array<[rule: string, input: string, message: string]> = [
  ['"." segment', 'a/./b.md', 'path_invalid: segment "." is not allowed'],
  ['".." segment', '../etc/passwd', 'path_invalid: segment ".." is not allowed'],
  ['".." in the middle', 'a/../b.md', 'path_invalid: segment ".." is not allowed'],
  ['empty segment', 'a//b', 'path_invalid: empty path segment ("//") is not allowed'],
  ['trailing "/" on a file', 'reports/', 'path_invalid: a file path must not end with "/"'],
  ['backslash', 'a\\b.md', 'path_invalid: backslash is not allowed in a path; use "/"'],
  ['control character (tab)', 'a\tb.md', 'path_invalid: control characters are not allowed in a path'],
  ['NUL', 'a\u0000b.md', 'path_invalid: control characters are not allowed in a path'],
  ['DEL', 'a\u007fb.md', 'path_invalid: control characters are not allowed in a path'],
  ['leading "/"', '/etc/passwd', 'path_invalid: path must be relative (no leading "/")'],
  ['empty path', '', 'path_invalid: path is empty'],
  ['depth 11', Array.from({ length: 11 }, (_, i) => `d${i}`).join('/'), 'path_invalid: depth 11 exceeds 10'],
  ['segment of 256 characters', `x/${seg(256)}`, 'path_invalid: segment longer than 255 characters'],
  ['path of 513 code points', `${seg(255)}/${seg(255)}/${'a'.repeat(1)}`, 'path_invalid: path longer than 512 characters'],
];

const accepted: Array<[what: string, input: string]> = [
  ['Cyrillic', 'отчёты/2026/сводка.md'],
  ['CJK', '报告/二〇二六/总结.md'],
  ['spaces', 'my reports/final draft v2.md'],
  ['depth 10', Array.from({ length: 10 }, (_, i) => `d${i}`).join('/')],
  ['segment of 255 characters', seg(255)],
  ['path of 512 code points', `${seg(255)}/${seg(254)}/a`],
  // Lengths are code points, not UTF-16 units: 512 emoji are 1,024 units and still fit.
  ['512 astral code points', `${'😀'.repeat(255)}/${'😀'.repeat(254)}/😀`],
  ['dot inside a name', 'a/.hidden/b..c.md'],
];

describe('F1 path rules', () => {
  it.each(refused)('refuses %s', (_rule, input, message) => {
    expect(refusal(input)).toBe(message);
  });

  it.each(accepted)('accepts %s', (_what, input) => {
    expect(refusal(input)).toBe('accepted');
  });

  it('the length rows are what they claim', () => {
    expect([...`${seg(255)}/${seg(255)}/a`].length).toBe(513);
    expect([...`${seg(255)}/${seg(254)}/a`].length).toBe(512);
    expect([...`${'😀'.repeat(255)}/${'😀'.repeat(254)}/😀`].length).toBe(512);
  });

  it('normalises to NFC: composed and decomposed "é" give one path', () => {
    const composed = 'caf\u00e9.md';
    const decomposed = 'cafe\u0301.md';
    expect(composed).not.toBe(decomposed);
    expect(normalizePath(decomposed)).toBe(composed);
    expect(normalizePath(composed)).toBe(composed);
  });

  it('is case-sensitive', () => {
    expect(normalizePath('Report.md')).not.toBe(normalizePath('report.md'));
  });

  it('folder paths accept the root and one trailing "/"', () => {
    expect(normalizePath('', 'folder')).toBe('');
    expect(normalizePath('/', 'folder')).toBe('');
    expect(normalizePath('reports/2026/', 'folder')).toBe('reports/2026');
    expect(() => normalizePath('reports//', 'folder')).toThrow(/empty path segment/);
  });

  it('refuses a non-string', () => {
    expect(() => normalizePath(42)).toThrow(/path must be a string/);
  });

  it('isInside compares whole segments (agents/a1 does not contain agents/a10)', () => {
    expect(isInside('agents/a1/x.md', 'agents/a1')).toBe(true);
    expect(isInside('agents/a10/x.md', 'agents/a1')).toBe(false);
    expect(isInside('anything', '')).toBe(true);
  });

  it('a move target ending in "/" keeps the name', () => {
    expect(moveTargetForTest('draft.md', 'reports/2026/')).toBe('reports/2026/draft.md');
    expect(moveTargetForTest('a/draft.md', '/')).toBe('draft.md');
  });
});

describe.each(testDbKinds())('F1 through the file store on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    ctx = await t.admin();
  });
  afterAll(() => t.cleanup());

  it('composed and decomposed "é" name one file', async () => {
    await putFile(ctx, { path: 'cafe\u0301/r\u00e9sum\u00e9.md', source: 'one' });
    const r = await putFile(ctx, { path: 'caf\u00e9/re\u0301sume\u0301.md', source: 'two' });
    expect(r.created).toBe(false);
    expect(r.file.version).toBe(2);
    const s = await statFile(ctx, 'cafe\u0301/re\u0301sume\u0301.md');
    expect(s.path).toBe('caf\u00e9/r\u00e9sum\u00e9.md');
    const all = await listFilesRecursive(ctx, { prefix: 'caf\u00e9' });
    expect(all.files.map((f) => f.path)).toEqual(['caf\u00e9/r\u00e9sum\u00e9.md']);
  });

  it('Report.md and report.md are two files', async () => {
    await putFile(ctx, { path: 'case/Report.md', source: 'upper' });
    await putFile(ctx, { path: 'case/report.md', source: 'lower' });
    expect((await statFile(ctx, 'case/Report.md')).size).toBe(5);
    expect((await statFile(ctx, 'case/report.md')).size).toBe(5);
    expect((await listFilesRecursive(ctx, { prefix: 'case' })).files.map((f) => f.path)).toEqual(['case/Report.md', 'case/report.md']);
  });

  it('Cyrillic, CJK and spaces round-trip', async () => {
    for (const p of ['отчёты/сводка 2026.md', '报告/总结 最终.md', 'a b/c d.txt']) {
      await putFile(ctx, { path: p, source: p });
      expect((await statFile(ctx, p)).path).toBe(p);
    }
  });

  it('a refused path leaves nothing behind', async () => {
    await expect(putFile(ctx, { path: '../escape.md', source: 'x' })).rejects.toMatchObject({ code: 'path_invalid', message: 'segment ".." is not allowed' });
    const all = await listFilesRecursive(ctx, {});
    expect(all.files.some((f) => f.path.includes('escape'))).toBe(false);
  });
});
