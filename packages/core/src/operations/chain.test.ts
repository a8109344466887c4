import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { testDbKinds } from '@stoa/db/testing';
import type { Limits } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes } from '../files/read-file.js';
import { lockPath } from '../files/locks.js';
import { patchDeadProps } from '../files/dead-props.js';
import { callTool } from './tool-ops.js';
import { runOperation } from './run-operation.js';

/** The runner's steps (chain.ts) as an agent meets them through the tools and through the table (issue 26). */
describe.each(testDbKinds())('the operation runner (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  async function setup(limits: Partial<Limits> = {}) {
    t = await createTestPlatform(kind, limits);
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Writer', files: 'on', write: 'project', read: 'project' });
    const conv = await createConversation(admin, { members: [a.id] });
    return { admin, a, conv, agent: await t.agentCtx(a.id, conv.id) };
  }

  it("refuses an agent's tool writes, rewrites, edits and deletes under someone else's lock, as HTTP PUT does", async () => {
    const { admin, agent } = await setup();
    await putFile(admin, { path: 'shared/plan.md', source: 'one two' });
    await lockPath(admin, { path: 'shared/plan.md', scope: 'exclusive', depth: '0', owner: null });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['ws_write_file', { path: 'shared/plan.md', content: 'overwritten' }],
      ['ws_write_file', { path: 'shared/plan.md', content: ' more', mode: 'append' }],
      ['full_file_rewrite', { file_path: 'shared/plan.md', file_contents: 'rewritten' }],
      ['str_replace', { file_path: 'shared/plan.md', old_str: 'one', new_str: 'three' }],
    ];
    for (const [name, args] of calls) {
      const r = await callTool(agent, name, args);
      expect(r.code, name).toBe('locked');
      expect(r.text, name).toMatch(/^Refused: .*locked/);
    }
    await expect(
      runOperation(agent, 'files.upload', { path: 'shared/plan.md', source: (await import('node:stream')).Readable.from(['x']) }),
    ).rejects.toMatchObject({
      code: 'locked',
    });
    expect((await readFileBytes(admin, 'shared/plan.md')).bytes.toString()).toBe('one two');
    // A lock on the folder (depth infinity) keeps new files out of it too.
    await lockPath(admin, { path: 'locked-folder', scope: 'exclusive', depth: 'infinity', owner: null });
    expect((await callTool(agent, 'create_file', { file_path: 'locked-folder/new.md', file_contents: 'x' })).code).toBe('locked');
    // A lock on the folder alone (depth 0) keeps its list of members: a new file is refused at once, by the runner
    // and by the mutator, while the folders beside and below it stay open.
    await lockPath(admin, { path: 'held', scope: 'exclusive', depth: '0', owner: null });
    await expect(runOperation(agent, 'files.upload', { path: 'held/new.md', source: Readable.from(['x']) })).rejects.toMatchObject({ code: 'locked' });
    expect((await callTool(agent, 'create_file', { file_path: 'held/new.md', file_contents: 'x' })).code).toBe('locked');
    for (const file_path of ['held-not/new.md', 'held/deeper/new.md']) {
      const r = await callTool(agent, 'create_file', { file_path, file_contents: 'x' });
      expect(r.refused, r.text).toBe(false);
    }
  });

  it("refuses an agent's delete under a lock, and its delete takes the file's lock and properties with it", async () => {
    const { admin } = await setup();
    // An agent confined to its own folder: it deletes and moves there.
    const a = await createAgent(admin, { name: 'Own', files: 'on' });
    const conv = await createConversation(admin, { members: [a.id] });
    const own = await t.agentCtx(a.id, conv.id);
    await putFile(admin, { path: `agents/${a.id}/held.md`, source: 'x' });
    await lockPath(admin, { path: `agents/${a.id}/held.md`, scope: 'exclusive', depth: '0', owner: null });
    expect((await callTool(own, 'ws_delete_file', { path: 'held.md' })).code).toBe('locked');
    expect((await callTool(own, 'delete_file', { file_path: 'held.md' })).code).toBe('locked');
    expect((await callTool(own, 'move_file', { from_path: 'held.md', to_path: 'moved.md' })).code).toBe('locked');
    expect((await readFileBytes(admin, `agents/${a.id}/held.md`)).bytes.toString()).toBe('x');
    // Its own lock and a dead property go with the file it deletes.
    await callTool(own, 'ws_write_file', { path: 'mine.md', content: 'x' });
    await lockPath(own, { path: `agents/${a.id}/mine.md`, scope: 'exclusive', depth: '0', owner: null });
    await patchDeadProps(own, `agents/${a.id}/mine.md`, [{ op: 'set', ns: 'urn:x', name: 'color', value: 'red' }]);
    const r = await callTool(own, 'ws_delete_file', { path: 'mine.md' });
    expect(r.refused, r.text).toBe(false);
    const db = t.platform.db.kysely;
    expect(await db.selectFrom('dav_locks').select('token').where('path', '=', `agents/${a.id}/mine.md`).execute()).toEqual([]);
    expect(await db.selectFrom('dav_props').select('name').execute()).toEqual([]);
  });

  it('refuses an agent acting in a conversation it does not take part in, at every door, and counts nothing there', async () => {
    const { admin, a } = await setup();
    const other = await createAgent(admin, { name: 'Other', files: 'on' });
    const foreign = await createConversation(admin, { members: [other.id] });
    const intruder = await t.agentCtx(a.id, foreign.id);
    const r = await callTool(intruder, 'ws_write_file', { path: 'x.md', content: 'x' });
    expect(r.code).toBe('not_in_conversation');
    expect((await callTool(intruder, 'wiki_put', { path: 'p', text: 'x' })).code).toBe('not_in_conversation');
    expect((await callTool(intruder, 'ws_read_file', { path: 'x.md' })).code).toBe('not_in_conversation');
    await expect(runOperation(intruder, 'files.list', {})).rejects.toMatchObject({ code: 'not_in_conversation' });
    await expect(runOperation(intruder, 'tools.call', { name: 'ws_list_files', arguments: {} })).rejects.toMatchObject({ code: 'not_in_conversation' });
    // Naming the foreign conversation per call (the tool route's `conversation`) is refused the same way.
    const own = await t.agentCtx(a.id);
    const viaCall = (await runOperation(own, 'tools.call', { name: 'ws_list_files', arguments: {}, conversation: foreign.id })) as { code?: string };
    expect(viaCall.code).toBe('not_in_conversation');
    const windows = await t.platform.db.kysely.selectFrom('agent_write_windows').selectAll().where('conversation_key', '=', foreign.id).execute();
    expect(windows).toEqual([]);
  });

  it("counts an agent's wiki saves in its write window, at the tools and the wiki routes, and gives refusals back", async () => {
    const { agent } = await setup({ agentWritesPerConversation: 3 });
    expect((await callTool(agent, 'wiki_put', { path: 'a', text: 'one' })).refused).toBe(false);
    // A refused save (its base is wrong) does not use up a change.
    expect((await callTool(agent, 'wiki_put', { path: 'a', text: 'two', expected_version: 7 })).code).toBe('version_conflict');
    await runOperation(agent, 'wiki.put', { path: 'b', text: 'one' });
    expect((await callTool(agent, 'ws_write_file', { path: 'f.md', content: 'x' })).refused).toBe(false);
    const over = await callTool(agent, 'wiki_put', { path: 'c', text: 'x' });
    expect(over.code).toBe('rate_limited');
    await expect(runOperation(agent, 'wiki.put', { path: 'd', text: 'x' })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it("charges an agent's wiki pages against the project's quota with its files", async () => {
    const { admin, agent } = await setup({ quotaBytes: 10_000 });
    await putFile(admin, { path: 'big.bin', source: Buffer.alloc(6000) });
    expect((await callTool(agent, 'wiki_put', { path: 'a', text: 'x'.repeat(3000) })).refused).toBe(false);
    const r = await callTool(agent, 'wiki_put', { path: 'b', text: 'x'.repeat(3000) });
    expect(r.code).toBe('quota_exceeded');
    await expect(runOperation(agent, 'wiki.put', { path: 'c', text: 'x'.repeat(3000) })).rejects.toMatchObject({ code: 'quota_exceeded' });
  });
});
