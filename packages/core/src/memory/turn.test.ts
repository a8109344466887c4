import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { appendMemory, getMemory, memoryHistory, setMemory } from './memory.js';
import { commitTurn, prepareTurn } from './turn.js';
import { addedLines } from './merge.js';

describe('addedLines', () => {
  it.each([
    ['a\nb\n', 'a\nb\nc\n', ['c']],
    ['a\nb\n', 'a\nx\nb\ny', ['x', 'y']],
    ['a\na\n', 'a\na\na\n', ['a']],
    ['a\nb\n', 'b\n', []],
    ['', '\n\nnew\n\n', ['new']],
  ])('%j → %j', (base, edited, lines) => expect(addedLines(base, edited)).toEqual(lines));
});

describe.each(testDbKinds())('hosted-agent turns on %s', (kind) => {
  let t: TestPlatform;
  let alice: Ctx;
  let agentId: string;
  let conv: string;
  const file = (turn: Awaited<ReturnType<typeof prepareTurn>>, name: string) => turn.files.find((f) => f.file === name)!;

  beforeEach(async () => {
    t = await createTestPlatform(kind, { memoryInlineChars: 200 });
    alice = await t.userCtx('alice', 'editor');
    agentId = (await createAgent(alice, { name: 'Helper', instructions: 'Be brief.' })).id;
    conv = (await createConversation(alice, { members: [agentId] })).id;
    await setMemory(await t.admin(), { file: 'AGENTS.md' }, 'Rule: cite sources.\n');
  });
  afterEach(async () => t.cleanup());

  it('prepare prepends what changed since the agent last saw it, and only that', async () => {
    const first = await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'Hello' });
    expect(first.files.map((f) => f.path)).toEqual(['SOUL.md', 'AGENTS.md', `${conv}/MEMORY.md`]);
    expect(first.files.map((f) => f.changed)).toEqual([true, true, false]);
    expect(first.message).toContain('Be brief.');
    expect(first.message).toContain('Rule: cite sources.');
    expect(first.message.endsWith('Hello')).toBe(true);
    const second = await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'Again' });
    expect(second.message).toBe('Again');
    await appendMemory(alice, { file: 'MEMORY.md', conversation: conv }, 'Customer prefers email.');
    const third = await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'Third' });
    expect(third.files.map((f) => f.changed)).toEqual([false, false, true]);
    expect(third.message).toContain('Customer prefers email.');
    expect(third.message).not.toContain('Rule: cite sources.');
  });

  it('a file over STOA_MEMORY_INLINE_CHARS is named, not inlined', async () => {
    await setMemory(alice, { file: 'MEMORY.md', conversation: conv }, 'x'.repeat(201));
    const turn = await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'Hi' });
    expect(file(turn, 'MEMORY.md')).toMatchObject({ changed: true, inlined: false });
    expect(turn.message).not.toContain('x'.repeat(201));
    expect(turn.message).toContain(`.stoa/memory/${conv}/MEMORY.md`);
  });

  it("commit without a concurrent edit saves the agent's copy as a new version by the agent", async () => {
    const turn = await prepareTurn(alice, { agent: agentId, conversation: conv });
    const soul = file(turn, 'SOUL.md').content + '\nI like tables.\n';
    const r = await commitTurn(alice, {
      agent: agentId,
      conversation: conv,
      files: [
        { file: 'SOUL.md', content: soul },
        { file: 'AGENTS.md', content: file(turn, 'AGENTS.md').content },
        { file: 'MEMORY.md', content: 'Met Bob.\n' },
      ],
    });
    expect(r.files.map((f) => [f.file, f.status])).toEqual([
      ['SOUL.md', 'saved'],
      ['AGENTS.md', 'unchanged'],
      ['MEMORY.md', 'saved'],
    ]);
    const m = await getMemory(alice, { file: 'MEMORY.md', conversation: conv });
    expect(m).toMatchObject({ content: 'Met Bob.\n', author: { kind: 'agent', name: 'Helper', conversationId: conv } });
    expect((await getMemory(alice, { file: 'SOUL.md', agent: agentId })).content).toBe(soul);
    // The agent's own saves are not news to it on the next turn.
    expect((await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'm' })).message).toBe('m');
    // Committing the same copy again changes nothing.
    const again = await commitTurn(alice, { agent: agentId, conversation: conv, files: [{ file: 'MEMORY.md', content: 'Met Bob.\n' }] });
    expect(again.files[0]!.status).toBe('unchanged');
  });

  it("commit after someone else saved appends only the agent's new lines, losing neither side", async () => {
    await setMemory(alice, { file: 'MEMORY.md', conversation: conv }, 'Line A\n');
    const turn = await prepareTurn(alice, { agent: agentId, conversation: conv });
    const agentCopy = file(turn, 'MEMORY.md').content + 'Agent line\n';
    await setMemory(alice, { file: 'MEMORY.md', conversation: conv }, 'Line A\nHuman line\n');
    const r = await commitTurn(alice, { agent: agentId, conversation: conv, files: [{ file: 'MEMORY.md', content: agentCopy }] });
    expect(r.files[0]).toMatchObject({ status: 'merged', version: 3 });
    expect((await getMemory(alice, { file: 'MEMORY.md', conversation: conv })).content).toBe('Line A\nHuman line\nAgent line\n');
    expect((await memoryHistory(alice, { file: 'MEMORY.md', conversation: conv }))[0]).toMatchObject({ op: 'merge', author: { name: 'Helper' } });
    // The same copy committed twice is not merged twice.
    expect((await commitTurn(alice, { agent: agentId, conversation: conv, files: [{ file: 'MEMORY.md', content: agentCopy }] })).files[0]!.status).toBe(
      'unchanged',
    );
    // The next turn shows the merged text, which the agent has not seen.
    const next = await prepareTurn(alice, { agent: agentId, conversation: conv, message: 'go' });
    expect(next.message).toContain('Human line');
  });

  it('edits the agent may not make are refused per file; a turn needs a participant agent it may run', async () => {
    const turn = await prepareTurn(alice, { agent: agentId, conversation: conv });
    const r = await commitTurn(alice, {
      agent: agentId,
      conversation: conv,
      files: [
        { file: 'AGENTS.md', content: 'hacked' },
        { file: 'MEMORY.md', content: 'ok\n' },
      ],
    });
    expect(r.files.map((f) => f.status)).toEqual(['refused', 'saved']);
    expect((await getMemory(alice, { file: 'AGENTS.md' })).content).toBe(file(turn, 'AGENTS.md').content);
    const bob = await t.userCtx('bob', 'editor');
    // Bob is not in the conversation: to him it does not exist (issue 27), before anything is said about the agent.
    await expect(prepareTurn(bob, { agent: agentId, conversation: conv })).rejects.toMatchObject({ code: 'not_found' });
    const other = (await createConversation(alice, { channel: 'other' })).id;
    await expect(prepareTurn(alice, { agent: agentId, conversation: other })).rejects.toMatchObject({ code: 'forbidden' });
    const agentItself = await t.agentCtx(agentId, conv);
    expect((await prepareTurn(agentItself, {})).files).toHaveLength(3);
  });
});
