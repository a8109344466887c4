import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from './conversations.js';
import { putFile } from '../files/put-file.js';
import { moveFile } from '../files/move-file.js';
import { moveFolder } from '../files/folder-move.js';
import { readFileBytes } from '../files/read-file.js';
import { callTool } from '../operations/tool-ops.js';
import { conversationChanges } from './conversation-changes.js';
import { revertConversation } from './revert-conversation.js';

// B11 review (issue 31): a file the conversation deleted shows the version it had, and a file it moved that a
// person moved since is listed where it is now, saying where the conversation had left it.
describe.each(testDbKinds())('the review of a conversation after people moved its files (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  it('lists a deleted file with its last version, and a moved file where a person moved it since', async () => {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Filer', files: 'on' });
    const conv = await createConversation(admin, { members: [a.id] });
    const own = `agents/${a.id}`;
    await putFile(admin, { path: `${own}/old.md`, source: 'one' });
    await putFile(admin, { path: `${own}/old.md`, source: 'two' });
    await putFile(admin, { path: `${own}/drafts/plan.md`, source: 'plan' });
    await putFile(admin, { path: `${own}/drafts/deck.md`, source: 'deck' });
    const agent = await t.agentCtx(a.id, conv.id);
    for (const [tool, args] of [
      ['ws_delete_file', { path: 'old.md' }],
      ['move_file', { from_path: 'drafts/plan.md', to_path: 'drafts/final.md' }],
      ['move_file', { from_path: 'drafts/deck.md', to_path: 'drafts/deck-final.md' }],
    ] as const) {
      const r = await callTool(agent, tool, args);
      expect(r.refused, r.text).toBe(false);
    }
    // People move them on: one file, then a whole folder.
    await moveFile(admin, { from: `${own}/drafts/final.md`, to: 'done/final.md' });
    await moveFolder(admin, { from: `${own}/drafts`, to: 'archive/drafts' });
    const by = Object.fromEntries((await conversationChanges(admin, { conversation: conv.id })).items.map((i) => [i.ref, i]));
    // Deleted files wait in the trash, so the review can bring them back.
    expect(by[`file:${own}/old.md`]).toMatchObject({ before: { version: 2 }, after: null, current: null, status: 'revertible' });
    expect(by['file:done/final.md']).toMatchObject({
      path: 'done/final.md',
      movedFrom: `${own}/drafts/plan.md`,
      movedSince: `${own}/drafts/final.md`,
      status: 'revertible',
    });
    expect(by['file:archive/drafts/deck-final.md']).toMatchObject({ movedFrom: `${own}/drafts/deck.md`, movedSince: `${own}/drafts/deck-final.md` });
    // Undoing one item puts it back where it was before the conversation.
    const { results } = await revertConversation(admin, { conversation: conv.id, items: ['file:done/final.md'] });
    expect(results.map((r) => [r.ref, r.status])).toEqual([['file:done/final.md', 'reverted']]);
    expect((await readFileBytes(admin, `${own}/drafts/plan.md`)).bytes.toString('utf8')).toBe('plan');
  });
});
