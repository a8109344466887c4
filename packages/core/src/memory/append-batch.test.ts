import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { appendMemory, getMemory, memoryHistory, setMemory, showMemoryVersion } from './memory.js';
import { searchMemory } from './search.js';

/**
 * Many writers appending to one memory file at once. On PostgreSQL the appends that arrive while the file is
 * being written go together in one statement (append-batch.ts); each must still be a version of its own, with its
 * own author and text, in an order no writer could tell apart from one append at a time.
 */
describe.each(testDbKinds())('appends to one memory file at once on %s', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t.cleanup());

  async function setup(limits: { agentWriteBytes?: number } = {}): Promise<{ alice: Ctx; agent: Ctx; conv: string }> {
    t = await createTestPlatform(kind, limits);
    const alice = await t.userCtx('alice', 'editor');
    const agentId = (await createAgent(alice, { name: 'Scribe' })).id;
    const conv = (await createConversation(alice, { channel: 'general', members: [agentId] })).id;
    return { alice, agent: await t.agentCtx(agentId, conv), conv };
  }

  it('16 writers: every append once, after every append acknowledged before it began, each a version with its author', async () => {
    const { alice, agent, conv } = await setup();
    const ref = { file: 'MEMORY.md', conversation: conv };
    const writers = 16;
    const each = 5;
    let acknowledged = 0; // the highest version acknowledged so far
    const got: { version: number; line: string; writer: number; content: string }[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < each; i++) {
          const before = acknowledged;
          // Quotes, backslashes, braces, commas and NULL: the texts travel to PostgreSQL as arrays.
          const line = `writer${w} note${i} word${w}x${i} "q" \\ {a,b} NULL ё`;
          const d = await appendMemory(w % 2 ? agent : alice, ref, line);
          // An append that began after another was acknowledged comes after it.
          expect(d.version).toBeGreaterThan(before);
          expect(d.content.endsWith(`${line}\n`)).toBe(true);
          expect(d.author?.kind).toBe(w % 2 ? 'agent' : 'user');
          acknowledged = Math.max(acknowledged, d.version);
          got.push({ version: d.version, line, writer: w, content: d.content });
        }
      }),
    );
    const total = writers * each;
    expect(new Set(got.map((g) => g.version))).toEqual(new Set(Array.from({ length: total }, (_, i) => i + 1)));
    const byVersion = [...got].sort((a, b) => a.version - b.version);
    const final = await getMemory(alice, ref);
    expect(final.version).toBe(total);
    expect(final.content).toBe(byVersion.map((g) => `${g.line}\n`).join(''));
    // The text each writer was answered with is that version's text, across the snapshot at version 50.
    for (const g of byVersion.filter((g) => [1, 2, 49, 50, 51, 52, total - 1, total].includes(g.version)))
      expect((await showMemoryVersion(alice, ref, g.version)).content, `version ${g.version}`).toBe(g.content);
    const history = await memoryHistory(alice, ref);
    expect(history.map((h) => h.version)).toEqual(byVersion.map((g) => g.version).reverse());
    for (const h of history) {
      const g = byVersion[h.version - 1]!;
      expect(h.author?.kind, `version ${h.version}`).toBe(g.writer % 2 ? 'agent' : 'user');
      expect(h.chars).toBe(g.content.length);
    }
    // The search blocks follow the whole text: the first and the last line are found.
    expect((await searchMemory(alice, { query: byVersion[0]!.line.split(' ')[2]! })).length).toBe(1);
    expect((await searchMemory(alice, { query: byVersion[total - 1]!.line.split(' ')[2]! })).length).toBe(1);
  });

  it('an append that would take the file over the size limit is refused alone; those beside it are written', async () => {
    const { alice, agent, conv } = await setup({ agentWriteBytes: 400 });
    const ref = { file: 'MEMORY.md', conversation: conv };
    await setMemory(alice, ref, `${'a'.repeat(199)}\n`);
    // Fifteen at once, so on PostgreSQL the large ones share batches with small ones: 200 + 251 bytes is over
    // the limit, 200 + 12 × 9 is not.
    const texts = Array.from({ length: 15 }, (_, i) => (i % 4 === 3 ? 'b'.repeat(250) : `small ${String(i).padStart(2, '0')}`));
    const results = await Promise.allSettled(texts.map((x, i) => appendMemory(i % 2 ? agent : alice, ref, x)));
    expect(results.map((r) => r.status)).toEqual(texts.map((x) => (x.startsWith('b') ? 'rejected' : 'fulfilled')));
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('too_large');
    const smalls = texts.filter((x) => x.startsWith('small'));
    const d = await getMemory(alice, ref);
    expect(d.version).toBe(1 + smalls.length);
    expect(d.content).not.toContain('b');
    expect(
      d.content
        .split('\n')
        .filter((l) => l.startsWith('small'))
        .sort(),
    ).toEqual(smalls);
    expect((await memoryHistory(alice, ref)).map((h) => h.version)).toEqual(Array.from({ length: 1 + smalls.length }, (_, i) => smalls.length + 1 - i));
  });
});
