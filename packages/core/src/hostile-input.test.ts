import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from './testing.js';
import type { Ctx } from './platform.js';
import { normalizePath } from './paths.js';
import { putFile } from './files/put-file.js';
import { moveFile } from './files/move-file.js';
import { copyFile } from './files/copy-file.js';
import { findFiles } from './files/list-files.js';
import { storeViolations } from './files/test-invariants.js';
import { putPage, renamePage } from './wiki/put-page.js';
import { searchWiki } from './wiki/search-wiki.js';
import { appendMemory, setMemory } from './memory/memory.js';
import { searchMemory } from './memory/search.js';
import { searchAll } from './unified-search/search-all.js';
import { createAgent } from './agents/agents.js';
import { createConversation } from './conversations/conversations.js';
import { describeCodePoint } from './text-rules.js';

const deceiving = ['\u202e', '\u202a', '\u2066', '\u2069', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u0080', '\u0085', '\u009f'];

describe('names that deceive (issue 9 §5)', () => {
  it.each(deceiving)('refuses %j in a path, naming the code point', (ch) => {
    const code = describeCodePoint(ch).split(' ')[0]!;
    expect(() => normalizePath(`reports/invoice${ch}fdp.exe`)).toThrow(
      expect.objectContaining({ code: 'path_invalid', message: expect.stringContaining(code) }),
    );
    expect(() => normalizePath(`folder${ch}/a.md`)).toThrow(expect.objectContaining({ code: 'path_invalid' }));
  });

  it('keeps right-to-left and joined scripts that need no control characters', () => {
    expect(normalizePath('מסמכים/דוח.md')).toBe('מסמכים/דוח.md');
    expect(normalizePath('تقارير/ملخص.md')).toBe('تقارير/ملخص.md');
    expect(normalizePath('हिन्दी/नोट.md')).toBe('हिन्दी/नोट.md');
  });
});

describe.each(testDbKinds())('hostile text and races on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    ctx = await t.admin();
  });
  afterAll(() => t.cleanup());

  it('refuses NUL in stored and searched text with invalid_text, alike on both back ends', async () => {
    const nul = 'a\u0000b';
    await expect(putPage(ctx, { path: 'nul', text: nul })).rejects.toMatchObject({ code: 'invalid_text' });
    await expect(putPage(ctx, { path: 'nul', text: 'ok', title: nul })).rejects.toMatchObject({ code: 'invalid_text' });
    await putPage(ctx, { path: 'fine', text: 'fine' });
    await expect(renamePage(ctx, { path: 'fine', title: nul })).rejects.toMatchObject({ code: 'invalid_text' });
    await expect(setMemory(ctx, { file: 'AGENTS.md' }, nul)).rejects.toMatchObject({ code: 'invalid_text' });
    await expect(appendMemory(ctx, { file: 'AGENTS.md' }, nul)).rejects.toMatchObject({ code: 'invalid_text' });
    await expect(putFile(ctx, { path: 'a\u0000.md', source: 'x' })).rejects.toMatchObject({ code: 'path_invalid' });
    await expect(createAgent(ctx, { name: nul })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(createConversation(ctx, { channel: nul })).rejects.toMatchObject({ status: 400 });
    for (const search of [
      () => findFiles(ctx, { text: nul }),
      () => searchWiki(ctx, { query: nul }),
      () => searchMemory(ctx, { query: nul }),
      () => searchAll(ctx, { query: nul }),
    ]) {
      await search().then(
        () => undefined,
        (e) => expect(e).toMatchObject({ code: 'invalid_text' }),
      );
    }
  });

  it('refuses deceiving characters in agent names with the code point', async () => {
    await expect(createAgent(ctx, { name: 'Helper\u202e' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('U+202E') });
  });

  it('stores file bytes holding NUL as they are, and still indexes their text', async () => {
    const bytes = Buffer.from('before\u0000after nulsearchword', 'utf8');
    const r = await putFile(ctx, { path: 'bytes/nul.txt', source: bytes });
    expect(r.file.size).toBe(bytes.length);
    expect((await searchAll(ctx, { query: 'nulsearchword' })).map((h) => h.path)).toContain('bytes/nul.txt');
  });

  it('50 parallel moves to one target: one wins, every other gets already_exists, nothing is lost', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => putFile(ctx, { path: `race/src-${i}.md`, source: `source ${i}` })));
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => moveFile(ctx, { from: `race/src-${i}.md`, to: 'race/target.md' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'already_exists' });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('parallel creates of one file, copies to one target and saves of one new page end in a 4xx, never a database error', async () => {
    const creates = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => putFile(ctx, { path: 'race/new.md', source: `c${i}`, mode: 'create' })));
    expect(creates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of creates) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'already_exists' });
    const copies = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => copyFile(ctx, { from: `race/src-${i + 1}.md`, to: 'race/copy.md' })));
    for (const r of copies) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: expect.any(Number) });
    const pages = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => putPage(ctx, { path: 'race/page', text: `p${i}` })));
    for (const r of pages) if (r.status === 'rejected') expect(r.reason.status).toBeLessThan(500);
    const channels = await Promise.allSettled(Array.from({ length: 10 }, () => createConversation(ctx, { channel: 'racing' })));
    for (const r of channels) if (r.status === 'rejected') expect(r.reason.status).toBeLessThan(500);
    expect(await storeViolations(ctx)).toEqual([]);
  });
});
