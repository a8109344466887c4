import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { listTrace } from '../conversations/trace.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes } from '../files/read-file.js';
import { listVersions } from '../files/versions.js';
import { lockPath } from '../files/locks.js';
import { getPage } from '../wiki/read-page.js';
import { putPage } from '../wiki/put-page.js';
import { getMemory, setMemory } from '../memory/memory.js';
import { callTool } from '../operations/tool-ops.js';
import type { Ctx } from '../platform.js';

// Agent tools for history and precise edits (issue 29, item 2): list_versions, restore_version, edit_file,
// wiki_edit and memory_edit, with the same scopes, window, locks and trace as every other change.
describe.each(testDbKinds())('history and precise edits (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  async function setup(settings: { write?: 'own' | 'project'; read?: 'project' | 'own' } = {}) {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Редактор', files: 'on', ...settings });
    const conv = await createConversation(admin, { members: [a.id] });
    return { admin, a, conv, agent: await t.agentCtx(a.id, conv.id), own: `agents/${a.id}` };
  }
  const text = async (ctx: Ctx, p: string) => (await readFileBytes(ctx, p)).bytes.toString('utf8');
  const writes = async (conv: string) =>
    (await t.platform.db.kysely.selectFrom('agent_write_windows').select('writes').where('conversation_key', '=', conv).execute()).reduce(
      (n, r) => n + Number(r.writes),
      0,
    );

  it('edit_file applies several edits in order, all or none, and a refusal names the failing edit', async () => {
    const { admin, agent, conv, own } = await setup();
    await callTool(agent, 'create_file', { file_path: 'plan.md', file_contents: 'Шаг 1: черновик\n步骤 2: 审阅\nstep 3: ship\n' });
    const before = await writes(conv.id);
    // The second edit matches only the text the first one left.
    const ok = await callTool(agent, 'edit_file', {
      path: 'plan.md',
      edits: [
        { old_str: 'черновик', new_str: 'draft v2' },
        { old_str: 'draft v2\n步骤', new_str: 'draft v2 done\n步骤' },
        { old_str: 'ship', new_str: 'отправить' },
      ],
      expected_version: 1,
    });
    expect(ok.refused, ok.text).toBe(false);
    expect(ok.text).toBe(`Applied 3 edits to ${own}/plan.md (at lines 1, 1, 3); version 2; change 2 of 1000 in this conversation.`);
    expect(await text(admin, `${own}/plan.md`)).toBe('Шаг 1: draft v2 done\n步骤 2: 审阅\nstep 3: отправить\n');
    expect(await writes(conv.id)).toBe(before + 1);

    // One failing edit refuses the call: nothing stored, nothing counted, the edit named by index with its reason.
    const missing = await callTool(agent, 'edit_file', {
      path: 'plan.md',
      edits: [
        { old_str: 'step 3', new_str: 'step three' },
        { old_str: 'step 3', new_str: 'again' },
      ],
    });
    expect(missing).toMatchObject({ refused: true, code: 'not_found' });
    expect(missing.text).toMatch(
      /^Refused: edits\[1\] of 2: old_str was not found in ".*plan\.md" \(version 2\); .*\(as edits\[0\]–edits\[0\] left it\); no edit was applied$/,
    );
    const twice = await callTool(agent, 'edit_file', { path: 'plan.md', edits: [{ old_str: ': ', new_str: 'x' }] });
    expect(twice).toMatchObject({ refused: true, code: 'bad_request' });
    expect(twice.text).toMatch(/^Refused: edits\[0\] of 1: old_str occurs 3 times .* \(at lines 1, 2, 3\)/);
    expect(await text(admin, `${own}/plan.md`)).toBe('Шаг 1: draft v2 done\n步骤 2: 审阅\nstep 3: отправить\n');
    expect(await writes(conv.id)).toBe(before + 1);

    const stale = await callTool(agent, 'edit_file', { path: 'plan.md', edits: [{ old_str: 'step 3', new_str: 's3' }], expected_version: 1 });
    expect(stale).toMatchObject({ refused: true, code: 'version_conflict' });
    expect((await callTool(agent, 'edit_file', { path: 'plan.md', edits: [] })).code).toBe('bad_request');
    expect((await callTool(agent, 'edit_file', { path: 'nope.md', edits: [{ old_str: 'a', new_str: 'b' }] })).code).toBe('not_found');
  });

  it('edit_file with dry_run returns the unified diff and changes nothing', async () => {
    const { admin, agent, conv, own } = await setup();
    await callTool(agent, 'create_file', { file_path: 'a.md', file_contents: 'one\ntwo\nthree\n' });
    const before = await writes(conv.id);
    const dry = await callTool(agent, 'edit_file', {
      path: 'a.md',
      edits: [
        { old_str: 'one', new_str: 'один' },
        { old_str: 'three', new_str: '三' },
      ],
      dry_run: true,
    });
    expect(dry.refused, dry.text).toBe(false);
    const diff = (dry.data as { diff: string }).diff;
    expect(diff).toContain(`--- ${own}/a.md\tversion 1`);
    expect(diff).toContain('-one\n+один\n two\n-three\n+三');
    expect(dry.text).toMatch(/^Dry run: nothing was stored or counted/);
    expect(await text(admin, `${own}/a.md`)).toBe('one\ntwo\nthree\n');
    expect(await writes(conv.id)).toBe(before);
    // A dry run is checked like the real edit.
    expect((await callTool(agent, 'edit_file', { path: 'a.md', edits: [{ old_str: 'four', new_str: '4' }], dry_run: true })).text).toMatch(
      /^Refused: edits\[0\] of 1: old_str was not found/,
    );
  });

  it("edit_file and restore_version write only in the agent's write scope; list_versions reads only in its read scope", async () => {
    const { admin, agent, own } = await setup({ write: 'own', read: 'project' });
    await putFile(admin, { path: 'shared.md', source: 'shared one' });
    await putFile(admin, { path: 'shared.md', source: 'shared two' });
    // A write path is inside the own folder, as for str_replace: the shared file is not reached.
    expect((await callTool(agent, 'edit_file', { path: 'shared.md', edits: [{ old_str: 'two', new_str: '2' }] })).code).toBe('not_found');
    expect((await callTool(agent, 'restore_version', { path: 'shared.md', version: 1 })).code).toBe('not_found');
    expect(await text(admin, 'shared.md')).toBe('shared two');
    const listed = await callTool(agent, 'list_versions', { path: 'shared.md' });
    expect(listed.text).toMatch(/^shared\.md has 2 versions, newest first:\nversion 2 \(current\) · 10 bytes · /);
    expect(listed.path).toBe('shared.md');

    const b = await createAgent(admin, { name: 'Confined', files: 'on', write: 'own', read: 'own' });
    const confined = await t.agentCtx(b.id, (await createConversation(admin, { members: [b.id] })).id);
    expect((await callTool(confined, 'list_versions', { path: 'shared.md' })).code).toBe('not_found');
    // Its own files, by the path relative to its folder.
    await callTool(agent, 'ws_write_file', { path: 'mine.md', content: 'x' });
    expect((await callTool(agent, 'list_versions', { path: 'mine.md' })).path).toBe(`${own}/mine.md`);
  });

  it('restore_version brings an old version back as a new one: counted, traced, refused under a lock', async () => {
    const { admin, agent, conv, own } = await setup();
    await callTool(agent, 'create_file', { file_path: 'r.md', file_contents: 'первый' });
    await callTool(agent, 'full_file_rewrite', { file_path: 'r.md', file_contents: '第二' });
    const listed = await callTool(agent, 'list_versions', { path: 'r.md' });
    expect(listed.text.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^version 2 \(current\) · 6 bytes · agent: Редактор · \d{4}-/),
      expect.stringMatching(/^version 1 · 12 bytes · agent: Редактор · \d{4}-/),
    ]);
    expect((listed.data as { versions: unknown[] }).versions).toHaveLength(2);

    const before = await writes(conv.id);
    const r = await callTool(agent, 'restore_version', { path: 'r.md', version: 1, expected_version: 2 });
    expect(r.text).toBe(`Restored version 1 of ${own}/r.md as version 3; change 3 of 1000 in this conversation.`);
    expect(await text(admin, `${own}/r.md`)).toBe('первый');
    expect(await writes(conv.id)).toBe(before + 1);
    const v3 = (await listVersions(admin, `${own}/r.md`))[0]!;
    expect(v3).toMatchObject({ version: 3, author: 'agent: Редактор' });
    expect(v3.authorDetail.meta).toMatchObject({ conversationId: conv.id, toolCallId: r.callId });
    const { entries } = await listTrace(admin, conv.id);
    expect(entries.find((e) => e.id === r.callId)).toMatchObject({ tool: 'restore_version', refused: false, version: 3 });

    expect((await callTool(agent, 'restore_version', { path: 'r.md', version: 9 })).text).toMatch(/^Refused: version 9 of .* does not exist/);
    expect((await callTool(agent, 'restore_version', { path: 'r.md', version: 2, expected_version: 2 })).code).toBe('version_conflict');
    await lockPath(admin, { path: `${own}/r.md`, scope: 'exclusive', depth: '0', owner: null });
    const locked = await callTool(agent, 'restore_version', { path: 'r.md', version: 2 });
    expect(locked).toMatchObject({ refused: true, code: 'locked' });
    expect(await text(admin, `${own}/r.md`)).toBe('первый');
    expect(await writes(conv.id)).toBe(before + 1);
  });

  it('wiki_edit replaces one exact text as a new version, counts in the window and refuses a stale version', async () => {
    const { admin, agent, conv } = await setup();
    await putPage(admin, { path: 'handbook/refunds', text: '# Возвраты\nСрок: 14 дней.\n退款期限\n' });
    const before = await writes(conv.id);
    const r = await callTool(agent, 'wiki_edit', { path: 'handbook/refunds', old_str: '14 дней', new_str: '30 дней', expected_version: 1 });
    expect(r.text).toBe('Replaced 1 occurrence at line 2 of page handbook/refunds; it is now version 2.');
    expect((await getPage(admin, { path: 'handbook/refunds' })).text).toBe('# Возвраты\nСрок: 30 дней.\n退款期限\n');
    expect(await writes(conv.id)).toBe(before + 1);

    const stale = await callTool(agent, 'wiki_edit', { path: 'handbook/refunds', old_str: '退款', new_str: '返还', expected_version: 1 });
    expect(stale).toMatchObject({ refused: true, code: 'version_conflict' });
    expect((await callTool(agent, 'wiki_edit', { path: 'handbook/refunds', old_str: 'нет такого', new_str: 'x' })).code).toBe('not_found');
    await putPage(admin, { path: 'handbook/refunds', text: 'aa aa' });
    expect((await callTool(agent, 'wiki_edit', { path: 'handbook/refunds', old_str: 'aa', new_str: 'b' })).text).toMatch(/occurs 2 times/);
    expect((await getPage(admin, { path: 'handbook/refunds' })).text).toBe('aa aa');
    // Refusals give the counted change back.
    expect(await writes(conv.id)).toBe(before + 1);
    expect((await callTool(agent, 'wiki_edit', { path: 'missing/page', old_str: 'a', new_str: 'b' })).code).toBe('not_found');
  });

  it('memory_edit replaces one exact text in a memory file; a stale expected version is a conflict', async () => {
    const { admin, agent, conv } = await setup();
    await setMemory(admin, { file: 'MEMORY.md', conversation: conv.id }, 'Продление ACME: 1 ноября\n续约\n');
    const r = await callTool(agent, 'memory_edit', { file: 'MEMORY.md', old_str: '1 ноября', new_str: '2 ноября', expected_version: 1 });
    expect(r.text).toBe(`Replaced 1 occurrence at line 1 of MEMORY.md of conversation ${conv.id}; it is now version 2.`);
    expect((await getMemory(admin, { file: 'MEMORY.md', conversation: conv.id })).content).toBe('Продление ACME: 2 ноября\n续约\n');
    const stale = await callTool(agent, 'memory_edit', { file: 'MEMORY.md', old_str: '续约', new_str: 'renewal', expected_version: 1 });
    expect(stale).toMatchObject({ refused: true, code: 'memory_version_conflict' });
    expect((await callTool(agent, 'memory_edit', { file: 'MEMORY.md', old_str: 'нет', new_str: 'x' })).code).toBe('not_found');
    // AGENTS.md is for admins to edit: an agent's edit is refused like its memory_set.
    await setMemory(admin, { file: 'AGENTS.md' }, 'rules');
    expect((await callTool(agent, 'memory_edit', { file: 'AGENTS.md', old_str: 'rules', new_str: 'mine' })).refused).toBe(true);
    expect((await getMemory(admin, { file: 'MEMORY.md', conversation: conv.id })).version).toBe(2);
  });
});
