import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { findFiles, listFilesRecursive } from './list-files.js';

/** What name search must answer: a plain case-insensitive substring test over every file name, by path. */
async function expected(ctx: Ctx, text: string): Promise<string[]> {
  const all = (await listFilesRecursive(ctx, { limit: 100_000 })).files;
  const needle = text.normalize('NFC').toLowerCase();
  return all
    .filter((f) => f.name.toLowerCase().includes(needle))
    .map((f) => f.path)
    .sort();
}

// The name index (migration 006) only narrows candidates; these check the answers stay those of a plain
// substring match as files are created, renamed, moved and deleted.
describe.each(testDbKinds())('name search index on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  const needles = [
    'report',
    'REPORT',
    'отчёт',
    'Протокол',
    '会议纪要',
    '纪要',
    'ab',
    'a',
    'é',
    'Résumé',
    'say "hi"',
    '100%',
    'a_b',
    '2026-0',
    ' q',
    'zzz',
    '.md',
  ];
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    ctx = await t.admin();
    const names = [
      'Report 2026-01.pdf',
      'old/report-2025.md',
      'Отчёт за март.docx',
      'протокол/ПРОТОКОЛ собрания.md',
      'cn/会议纪要.md',
      'cn/纪要二.txt',
      'Résumé.pdf',
      'quotes/say "hi" now.txt',
      'misc/100%_done.txt',
      'misc/a_b.txt',
      'misc/axb.txt',
      'ab.txt',
      'x/y/z/deep report.md',
      'space q.txt',
    ];
    for (const n of names) await putFile(ctx, { path: n, source: n });
  });
  afterAll(() => t.cleanup());

  it('answers exactly what a substring match over the names answers', async () => {
    for (const n of needles) expect((await findFiles(ctx, { text: n })).files.map((f) => f.path).sort(), n).toEqual(await expected(ctx, n));
    expect((await findFiles(ctx, { text: 'report' })).files.map((f) => f.path)).toEqual(['Report 2026-01.pdf', 'old/report-2025.md', 'x/y/z/deep report.md']);
  });

  it('keeps the limit and the truncated flag', async () => {
    const r = await findFiles(ctx, { text: 'report', limit: 2 });
    expect(r.files.map((f) => f.path)).toEqual(['Report 2026-01.pdf', 'old/report-2025.md']);
    expect(r.truncated).toBe(true);
  });

  it('follows renames, moves and deletes', async () => {
    await putFile(ctx, { path: 'ledgers/ledger-2025.md', source: 'l' });
    await putFile(ctx, { path: 'Ledger-card.pdf', source: 'l' });
    await putFile(ctx, { path: 'cn/账簿.md', source: 'l' });
    await moveFile(ctx, { from: 'ledgers/ledger-2025.md', to: 'archive/summary-2025.md' });
    await moveFile(ctx, { from: 'Ledger-card.pdf', to: 'cv/' });
    await deleteFile(ctx, { path: 'cn/账簿.md' });
    await putFile(ctx, { path: 'new/Another LEDGER.txt', source: 'n' });
    expect((await findFiles(ctx, { text: 'ledger' })).files.map((f) => f.path)).toEqual(['cv/Ledger-card.pdf', 'new/Another LEDGER.txt']);
    expect((await findFiles(ctx, { text: 'summary-2025' })).files.map((f) => f.path)).toEqual(['archive/summary-2025.md']);
    expect((await findFiles(ctx, { text: '账簿' })).files).toEqual([]);
    for (const n of needles) expect((await findFiles(ctx, { text: n })).files.map((f) => f.path).sort(), n).toEqual(await expected(ctx, n));
  });
});
