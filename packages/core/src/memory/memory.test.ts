import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { appendMemory, getMemory, memoryHistory, restoreMemoryVersion, setMemory, showMemoryVersion } from './memory.js';
import { searchMemory } from './search.js';
import { listMemoryFiles, memoryBundle } from './bundle.js';

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe.each(testDbKinds())('memory files on %s', (kind) => {
  let t: TestPlatform;
  let admin: Ctx;
  let alice: Ctx; // editor, owner of the agent, participant of #general
  let bob: Ctx; // editor, not a participant
  let vera: Ctx; // viewer, participant
  let agentId: string;
  let otherId: string;
  let conv: string;

  beforeEach(async () => {
    t = await createTestPlatform(kind);
    admin = await t.admin();
    alice = await t.userCtx('alice', 'editor');
    bob = await t.userCtx('bob', 'editor');
    vera = await t.userCtx('vera', 'viewer');
    agentId = (await createAgent(alice, { name: 'Researcher', instructions: 'You research renewals.' })).id;
    otherId = (await createAgent(alice, { name: 'Writer', instructions: 'You write.' })).id;
    conv = (await createConversation(alice, { channel: 'general', members: [agentId, 'vera'] })).id;
  });
  afterEach(async () => t.cleanup());

  it('a never-saved SOUL.md is version 0 holding the instructions; saves add versions with author and time', async () => {
    const v0 = await getMemory(alice, { file: 'SOUL.md', agent: agentId });
    expect(v0).toMatchObject({ file: 'SOUL.md', version: 0, content: 'You research renewals.', editable: true });
    const v1 = await setMemory(alice, { file: 'SOUL.md', agent: agentId }, 'I am careful.\n', { base: 0 });
    expect(v1).toMatchObject({ version: 1, author: { kind: 'user', name: 'alice' } });
    const agent = await t.agentCtx(agentId, conv);
    const v2 = await appendMemory(agent, { file: 'SOUL.md' }, 'I cite sources.');
    expect(v2.content).toBe('I am careful.\nI cite sources.\n');
    expect(v2.author).toMatchObject({ kind: 'agent', name: 'Researcher', conversationId: conv });
    const h = await memoryHistory(bob, { file: 'SOUL.md', agent: agentId });
    expect(h.map((x) => [x.version, x.author?.name, x.op])).toEqual([
      [2, 'Researcher', 'append'],
      [1, 'alice', 'set'],
      [0, 'instructions', 'instructions'],
    ]);
    expect(h[0]!.modified).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await showMemoryVersion(bob, { file: 'SOUL.md', agent: agentId }, 1)).content).toBe('I am careful.\n');
    expect((await showMemoryVersion(bob, { file: 'SOUL.md', agent: agentId }, 0)).content).toBe('You research renewals.');
    expect((await refusal(showMemoryVersion(bob, { file: 'SOUL.md', agent: agentId }, 9))).code).toBe('not_found');
  });

  it('a save based on an older version is refused with memory_version_conflict and the current version', async () => {
    await setMemory(admin, { file: 'AGENTS.md' }, 'Rule 1\n', { base: 0 });
    await setMemory(admin, { file: 'AGENTS.md' }, 'Rule 1\nRule 2\n', { base: 1 });
    const e = await refusal(setMemory(admin, { file: 'AGENTS.md' }, 'stale', { base: 1 }));
    expect(e.code).toBe('memory_version_conflict');
    expect(e.details).toMatchObject({ currentVersion: 2 });
    expect((await getMemory(vera, { file: 'AGENTS.md' })).content).toBe('Rule 1\nRule 2\n');
  });

  it('restoring an earlier version saves its text as a new version, refused like a save when someone saved since', async () => {
    const ref = { file: 'AGENTS.md' };
    await setMemory(admin, ref, 'first\n');
    await setMemory(admin, ref, 'second\n');
    const r = await restoreMemoryVersion(admin, ref, 1, { base: 2 });
    expect(r).toMatchObject({ version: 3, content: 'first\n' });
    expect((await memoryHistory(admin, ref)).map((h) => [h.version, h.op])).toEqual([
      [3, 'restore'],
      [2, 'set'],
      [1, 'set'],
    ]);
    const stale = await refusal(restoreMemoryVersion(admin, ref, 2, { base: 2 }));
    expect(stale.code).toBe('memory_version_conflict');
    expect(stale.details).toMatchObject({ currentVersion: 3 });
    expect((await refusal(restoreMemoryVersion(vera, ref, 2))).code).toBe('forbidden');
    expect((await getMemory(bob, ref)).content).toBe('first\n');
  });

  it('two concurrent saves on the same base: exactly one wins, the other gets memory_version_conflict', async () => {
    const ref = { file: 'MEMORY.md', conversation: conv };
    await setMemory(alice, ref, 'start\n');
    const agent = await t.agentCtx(agentId, conv);
    const results = await Promise.allSettled([setMemory(alice, ref, 'alice\n', { base: 1 }), setMemory(agent, { file: 'MEMORY.md' }, 'agent\n', { base: 1 })]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reason.code).toBe('memory_version_conflict');
    expect((await getMemory(alice, ref)).version).toBe(2);
  });

  it('concurrent appends keep every line exactly once', async () => {
    const agent = await t.agentCtx(agentId, conv);
    await Promise.all(Array.from({ length: 30 }, (_, i) => appendMemory(i % 2 ? agent : alice, { file: 'MEMORY.md', conversation: conv }, `line ${i}`)));
    const d = await getMemory(alice, { file: 'MEMORY.md', conversation: conv });
    const lines = d.content.trim().split('\n');
    expect(lines).toHaveLength(30);
    expect(new Set(lines).size).toBe(30);
    expect(d.version).toBe(30);
  });

  it("MEMORY.md during a turn means the turn's conversation; there is no workspace-wide MEMORY.md", async () => {
    const agent = await t.agentCtx(agentId, conv);
    await appendMemory(agent, { file: 'MEMORY.md' }, 'The ACME renewal moved to 2 November');
    expect((await getMemory(alice, { file: 'MEMORY.md', conversation: 'general' })).content).toContain('ACME');
    const e = await refusal(getMemory(admin, { file: 'MEMORY.md' }));
    expect(e.code).toBe('bad_request');
    expect(e.message).toMatch(/no workspace-wide MEMORY.md/);
    expect((await refusal(getMemory(admin, { file: 'NOTES.md' }))).code).toBe('bad_request');
    expect((await refusal(getMemory(admin, { file: 'SOUL.md' }))).message).toMatch(/--agent/);
  });

  it('rights: non-participants, viewers, other agents', async () => {
    await setMemory(alice, { file: 'MEMORY.md', conversation: conv }, 'secret plan\n');
    // A conversation one is not in answers exactly as a missing one (issue 27).
    const hidden = await refusal(getMemory(bob, { file: 'MEMORY.md', conversation: conv }));
    const missing = await refusal(getMemory(bob, { file: 'MEMORY.md', conversation: 'conv_doesnotexist' }));
    expect([hidden.code, hidden.message.replace(conv, 'X')]).toEqual([missing.code, missing.message.replace('conv_doesnotexist', 'X')]);
    expect(hidden.code).toBe('not_found');
    expect((await getMemory(admin, { file: 'MEMORY.md', conversation: conv })).content).toBe('secret plan\n');
    expect((await getMemory(vera, { file: 'MEMORY.md', conversation: conv })).editable).toBe(false);
    expect((await refusal(appendMemory(vera, { file: 'MEMORY.md', conversation: conv }, 'x'))).code).toBe('forbidden');
    expect((await refusal(setMemory(vera, { file: 'AGENTS.md' }, 'x'))).code).toBe('forbidden');
    expect((await refusal(setMemory(alice, { file: 'AGENTS.md' }, 'x'))).code).toBe('forbidden');
    const agent = await t.agentCtx(agentId, conv);
    expect((await refusal(appendMemory(agent, { file: 'AGENTS.md' }, 'x'))).code).toBe('forbidden');
    expect((await refusal(setMemory(agent, { file: 'SOUL.md', agent: otherId }, 'x'))).code).toBe('forbidden');
    expect((await refusal(getMemory(agent, { file: 'SOUL.md', agent: otherId }))).code).toBe('forbidden');
    expect((await refusal(setMemory(bob, { file: 'SOUL.md', agent: agentId }, 'x'))).code).toBe('forbidden');
    // An agent may target another conversation with --channel only if it takes part in it.
    const elsewhere = (await createConversation(bob, { channel: 'random' })).id;
    expect((await refusal(getMemory(agent, { file: 'MEMORY.md', conversation: 'random' }))).code).toBe('not_found');
    expect(elsewhere).toMatch(/^conv_/);
    const list = await listMemoryFiles(bob);
    expect(list.map((f) => f.title)).toEqual(['AGENTS.md', 'SOUL.md of Researcher', 'SOUL.md of Writer', 'MEMORY.md of #random']);
    expect(list.find((f) => f.file === 'AGENTS.md')?.editable).toBe(false);
  });

  it('search covers only readable files, ranked with snippets, in English, Russian and Chinese', async () => {
    await setMemory(
      alice,
      { file: 'MEMORY.md', conversation: conv },
      'The ACME renewal moved to 2 November.\nВстреча с клиентом перенесена на пятницу.\n数据迁移计划在下周完成。\n',
    );
    await setMemory(admin, { file: 'AGENTS.md' }, 'Always mention the renewal date. Отвечайте вежливо.\n');
    const secret = (await createConversation(bob, { channel: 'secret' })).id;
    await setMemory(bob, { file: 'MEMORY.md', conversation: secret }, 'Renewal of the secret deal.\n');
    const hits = await searchMemory(alice, { query: 'renewal' });
    expect(hits.map((h) => h.file).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
    expect(hits.every((h) => h.snippet.toLowerCase().includes('renewal'))).toBe(true);
    expect((await searchMemory(alice, { query: 'встречи клиента' }))[0]).toMatchObject({ file: 'MEMORY.md', conversation: conv });
    expect((await searchMemory(alice, { query: '数据迁移' }))[0]?.snippet).toContain('数据迁移');
    expect((await searchMemory(bob, { query: 'renewal' })).map((h) => h.conversation ?? h.file).sort()).toEqual(['AGENTS.md', secret]);
    const agent = await t.agentCtx(agentId, conv);
    expect((await searchMemory(agent, { query: 'renewal' })).length).toBe(2);
  });

  it('search stays right as a file grows by appends and shrinks by a save (one hit per file)', async () => {
    const ref = { file: 'MEMORY.md', conversation: conv };
    await appendMemory(alice, ref, 'Zebra crossing opened on Main street.');
    for (let i = 0; i < 90; i++) await appendMemory(alice, ref, `routine note ${i}`);
    await appendMemory(alice, ref, 'Giraffe spotted near the depot.');
    const zebra = await searchMemory(alice, { query: 'zebra' });
    expect(zebra).toHaveLength(1);
    expect(zebra[0]).toMatchObject({ file: 'MEMORY.md', version: 92 });
    expect(await searchMemory(alice, { query: 'routine' })).toHaveLength(1);
    await setMemory(alice, ref, 'Only giraffes now.\n');
    expect(await searchMemory(alice, { query: 'zebra' })).toEqual([]);
    expect(await searchMemory(alice, { query: 'routine' })).toEqual([]);
    expect((await searchMemory(alice, { query: 'giraffes' }))[0]?.snippet).toContain('Only giraffes');
  });

  it('every version shows its whole text, across appends, saves and snapshots', async () => {
    const ref = { file: 'MEMORY.md', conversation: conv };
    const expected: string[] = [''];
    let text = '';
    for (let v = 1; v <= 120; v++) {
      if (v % 37 === 0) text = `rewritten at ${v}\n`;
      else text += `line ${v}\n`;
      if (v % 37 === 0) await setMemory(alice, ref, text);
      else await appendMemory(alice, ref, `line ${v}`);
      expected.push(text);
    }
    for (const v of [1, 2, 36, 37, 38, 49, 50, 51, 99, 100, 101, 111, 120])
      expect((await showMemoryVersion(alice, ref, v)).content, `version ${v}`).toBe(expected[v]);
    const h = await memoryHistory(alice, ref);
    expect(h).toHaveLength(120);
    expect(h[0]!.chars).toBe(expected[120]!.length);
  });

  it("pull bundle: SOUL.md, AGENTS.md and the conversation's MEMORY.md under its id", async () => {
    const agent = await t.agentCtx(agentId, conv);
    await appendMemory(agent, { file: 'MEMORY.md' }, 'note');
    const b = await memoryBundle(agent, {});
    expect(b.map((f) => f.path)).toEqual(['SOUL.md', 'AGENTS.md', `${conv}/MEMORY.md`]);
    expect(b[0]!.content).toBe('You research renewals.');
    expect((await memoryBundle(admin, {})).map((f) => f.path)).toEqual(['AGENTS.md']);
  });
});
