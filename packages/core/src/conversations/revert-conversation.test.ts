import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from './conversations.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes, statFile } from '../files/read-file.js';
import { listVersions } from '../files/versions.js';
import { getPage } from '../wiki/read-page.js';
import { putPage } from '../wiki/put-page.js';
import { getMemory } from '../memory/memory.js';
import { pageHistory } from '../wiki/history.js';
import { listAudit } from '../audit/audit.js';
import { callTool } from '../operations/tool-ops.js';
import { conversationChanges } from './conversation-changes.js';
import { revertConversation } from './revert-conversation.js';
import { listTrash } from '../trash/list-trash.js';
import { purgeFromTrash } from '../trash/purge-trash.js';

// B11: an agent's conversation is reviewed as one diff and undone as one operation, item by item.
describe.each(testDbKinds())('undo a conversation (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  async function setup() {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const ed = await t.userCtx('ed', 'editor');
    const a = await createAgent(admin, { name: 'Researcher', files: 'on', write: 'project' });
    const conv = await createConversation(admin, { members: [a.id, 'ed'] });
    const other = await createConversation(admin, { members: [a.id] });
    const secret = await createConversation(admin, { channel: 'secret', members: [a.id] });
    await putFile(admin, { path: 'plan.md', source: 'step 1\nstep 2\n' });
    await putFile(admin, { path: 'notes.md', source: 'notes v1\n' });
    await putFile(admin, { path: 'other.md', source: 'other v1\n' });
    await putPage(admin, { path: 'handbook/refunds', text: '# Refunds\n5 days\n', title: 'Refunds' });
    const agent = await t.agentCtx(a.id, conv.id);
    const call = async (name: string, args: unknown) => {
      const r = await callTool(agent, name, args);
      expect(r.refused, r.text).toBe(false);
    };
    await call('ws_write_file', { path: 'plan.md', content: 'step 1\nstep 2 changed\n' });
    await call('ws_write_file', { path: 'plan.md', content: 'step 1\nstep 2 changed twice\n' });
    await call('ws_write_file', { path: 'new.md', content: 'brand new\n' });
    await call('ws_write_file', { path: 'notes.md', content: 'notes by agent\n' });
    await call('wiki_put', { path: 'handbook/refunds', text: '# Refunds\n7 days\n' });
    await call('memory_append', { file: 'MEMORY.md', text: 'the agent learned something' });
    await call('memory_append', { file: 'MEMORY.md', channel: 'secret', text: 'secret fact' });
    await call('wiki_put', { path: 'secret/plans', text: 'for the channel only', channel: 'secret' });
    // A second conversation's change, which undoing the first must not touch.
    const agent2 = await t.agentCtx(a.id, other.id);
    expect((await callTool(agent2, 'ws_write_file', { path: 'other.md', content: 'other by agent\n' })).refused).toBe(false);
    // A person changes one item after the agent.
    await putFile(ed, { path: 'notes.md', source: 'notes fixed by ed\n' });
    return { admin, ed, a, conv, other, secret };
  }

  const text = async (ctx: Awaited<ReturnType<TestPlatform['admin']>>, p: string) => (await readFileBytes(ctx, p)).bytes.toString('utf8');

  it('lists every item the conversation changed with its diff, and flags the one someone changed since', async () => {
    const { ed, admin, conv } = await setup();
    const { items } = await conversationChanges(ed, { conversation: conv.id });
    const by = Object.fromEntries(items.map((i) => [i.ref, i]));
    expect(Object.keys(by).sort()).toEqual(['file:new.md', 'file:notes.md', 'file:plan.md', `memory:MEMORY.md:${conv.id}`, 'wiki:handbook/refunds']);
    expect(by['file:plan.md']).toMatchObject({ before: { version: 1 }, after: { version: 3 }, current: { version: 3 }, status: 'revertible', binary: false });
    expect(by['file:plan.md']!.diff).toContain('-step 2\n+step 2 changed twice');
    expect(by['file:new.md']).toMatchObject({ before: null, after: { version: 1 }, status: 'revertible' });
    expect(by['file:notes.md']).toMatchObject({ status: 'conflict', changedBy: ['ed'], current: { version: 3 } });
    expect(by['wiki:handbook/refunds']!.diff).toContain('-5 days\n+7 days');
    expect(by[`memory:MEMORY.md:${conv.id}`]!.diff).toContain('+the agent learned something');
    // The secret channel's MEMORY.md and wiki page are not ed's to read: absent, not even counted. An admin sees it.
    const all = (await conversationChanges(admin, { conversation: conv.id })).items.map((i) => i.ref);
    expect(all).toContain(`memory:MEMORY.md:${(await conversationChanges(admin, { conversation: 'secret' })).conversation}`);
    expect(all).toContain('wiki:secret/plans');
    expect(items).toHaveLength(5);
  });

  it('reverts the items as new versions, refuses the one changed since, and leaves the other conversation alone', async () => {
    const { ed, admin, conv } = await setup();
    const { results } = await revertConversation(ed, { conversation: conv.id });
    const by = Object.fromEntries(results.map((r) => [r.ref, r]));
    expect(by['file:plan.md']!.status).toBe('reverted');
    expect(by['file:new.md']!.status).toBe('reverted');
    expect(by['file:notes.md']!.status).toBe('conflict');
    expect(by['wiki:handbook/refunds']!.status).toBe('reverted');
    expect(by[`memory:MEMORY.md:${conv.id}`]!.status).toBe('reverted');
    expect(await text(admin, 'plan.md')).toBe('step 1\nstep 2\n');
    expect((await listVersions(admin, 'plan.md')).map((v) => v.version)).toEqual([4, 3, 2, 1]);
    await expect(statFile(admin, 'new.md')).rejects.toThrow(/does not exist/);
    expect(await text(admin, 'notes.md')).toBe('notes fixed by ed\n');
    expect(await text(admin, 'other.md')).toBe('other by agent\n');
    expect((await getPage(admin, { path: 'handbook/refunds' })).text).toBe('# Refunds\n5 days\n');
    expect((await pageHistory(admin, { path: 'handbook/refunds' })).map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await getMemory(admin, { file: 'MEMORY.md', conversation: conv.id })).content).toBe('');
    expect((await listAudit(admin)).entries.some((e) => e.action === 'conversation.revert' && e.actor.name === 'ed')).toBe(true);
    // Reviewing again: what was undone is back as before; the refused item still waits.
    const again = Object.fromEntries((await conversationChanges(ed, { conversation: conv.id })).items.map((i) => [i.ref, i.status]));
    expect(again).toMatchObject({ 'file:plan.md': 'reverted', 'file:notes.md': 'conflict' });
  });

  it('reverts only the named items', async () => {
    const { ed, admin, conv } = await setup();
    const { results } = await revertConversation(ed, { conversation: conv.id, items: ['file:plan.md'] });
    expect(results.map((r) => [r.ref, r.status])).toEqual([['file:plan.md', 'reverted']]);
    expect(await text(admin, 'new.md')).toBe('brand new\n');
    await expect(revertConversation(ed, { conversation: conv.id, items: ['file:nope.md'] })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('refuses viewers and agents, and answers not_found for a conversation one does not take part in', async () => {
    const { a, conv, other } = await setup();
    const viewer = await t.userCtx('vera', 'viewer');
    await expect(conversationChanges(viewer, { conversation: conv.id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(revertConversation(await t.agentCtx(a.id, other.id), { conversation: conv.id })).rejects.toMatchObject({ code: 'forbidden' });
    const outsider = await t.userCtx('olga', 'editor');
    await expect(conversationChanges(outsider, { conversation: conv.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(revertConversation(outsider, { conversation: conv.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(conversationChanges(outsider, { conversation: 'conv_missing' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('moves a file the conversation moved back, and restores a file it deleted from the trash with its versions', async () => {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Filer', files: 'on' });
    const before = await createConversation(admin, { members: [a.id] });
    const conv = await createConversation(admin, { members: [a.id] });
    const own = `agents/${a.id}`;
    const first = await t.agentCtx(a.id, before.id);
    await callTool(first, 'ws_write_file', { path: 'draft.md', content: 'draft' });
    await callTool(first, 'ws_write_file', { path: 'gone.md', content: 'gone' });
    await callTool(first, 'ws_write_file', { path: 'gone.md', content: 'gone, second' });
    const agent = await t.agentCtx(a.id, conv.id);
    expect((await callTool(agent, 'move_file', { from_path: 'draft.md', to_path: 'final.md' })).refused).toBe(false);
    expect((await callTool(agent, 'ws_delete_file', { path: 'gone.md' })).refused).toBe(false);
    const by = Object.fromEntries((await conversationChanges(admin, { conversation: conv.id })).items.map((i) => [i.ref, i]));
    expect(by[`file:${own}/final.md`]).toMatchObject({ movedFrom: `${own}/draft.md`, status: 'revertible' });
    expect(by[`file:${own}/gone.md`]).toMatchObject({ status: 'revertible', current: null, note: expect.stringContaining('in the trash') });
    const { results } = await revertConversation(admin, { conversation: conv.id });
    expect(Object.fromEntries(results.map((r) => [r.ref, r.status]))).toEqual({
      [`file:${own}/final.md`]: 'reverted',
      [`file:${own}/gone.md`]: 'reverted',
    });
    expect(await text(admin, `${own}/draft.md`)).toBe('draft');
    expect(await text(admin, `${own}/gone.md`)).toBe('gone, second');
    expect((await listVersions(admin, `${own}/gone.md`)).map((v) => v.version)).toEqual([2, 1]);
    await expect(statFile(admin, `${own}/final.md`)).rejects.toThrow(/does not exist/);
  });

  it('says so when what the conversation deleted was purged from the trash since', async () => {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Purged', files: 'on' });
    const conv = await createConversation(admin, { members: [a.id] });
    const own = `agents/${a.id}`;
    await putFile(admin, { path: `${own}/old.md`, source: 'old' });
    const agent = await t.agentCtx(a.id, conv.id);
    expect((await callTool(agent, 'ws_delete_file', { path: 'old.md' })).refused).toBe(false);
    const [entry] = (await listTrash(admin)).items;
    await purgeFromTrash(admin, { id: entry!.id });
    const { results } = await revertConversation(admin, { conversation: conv.id });
    expect(results).toEqual([expect.objectContaining({ ref: `file:${own}/old.md`, status: 'unrecoverable', message: expect.stringContaining('purged') })]);
  });

  it('honours the quota: an item whose restore does not fit fails with the reason, the others are reverted', async () => {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000, quotaBytes: 100 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Shrinker', files: 'on', write: 'project' });
    const conv = await createConversation(admin, { members: [a.id] });
    await putFile(admin, { path: 'big.md', source: 'x'.repeat(60) });
    const agent = await t.agentCtx(a.id, conv.id);
    expect((await callTool(agent, 'ws_write_file', { path: 'big.md', content: 'small' })).refused).toBe(false);
    expect((await callTool(agent, 'ws_write_file', { path: 'tiny.md', content: 'tiny' })).refused).toBe(false);
    await putFile(admin, { path: 'filler.md', source: 'y'.repeat(80) });
    const { results } = await revertConversation(admin, { conversation: conv.id });
    const by = Object.fromEntries(results.map((r) => [r.ref, r]));
    expect(by['file:big.md']).toMatchObject({ status: 'failed' });
    expect(by['file:big.md']!.message).toMatch(/space|quota/i);
    expect(by['file:tiny.md']!.status).toBe('reverted');
    expect(await text(admin, 'big.md')).toBe('small');
  });
});
