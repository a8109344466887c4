import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent, publishAgent, updateAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { listTrace } from '../conversations/trace.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes, statFile } from '../files/read-file.js';
import { listAudit } from '../audit/audit.js';
import { createToken, authenticate } from '../projects/tokens.js';
import { contextFor } from '../context.js';
import { callTool } from '../operations/tool-ops.js';
import { patchDeadProps } from '../files/dead-props.js';
import { lockPath } from '../files/locks.js';

describe.each(testDbKinds())('file tools (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  async function setup(settings: { write?: 'own' | 'project'; read?: 'project' | 'own' } = {}) {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000 });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Researcher', files: 'on', ...settings });
    const conv = await createConversation(admin, { members: [a.id] });
    return { admin, a, conv, agent: await t.agentCtx(a.id, conv.id), own: `agents/${a.id}` };
  }
  const text = async (ctx: Awaited<ReturnType<TestPlatform['admin']>>, p: string) => (await readFileBytes(ctx, p)).bytes.toString('utf8');

  it('reads own files by the path they were written under, shared files by root path, own folder first', async () => {
    const { admin, agent, own } = await setup();
    await putFile(admin, { path: 'pricing/price-list.md', source: 'shared prices' });
    await putFile(admin, { path: 'reports/summary.md', source: 'root summary' });
    const w = await callTool(agent, 'ws_write_file', { path: 'reports/summary.md', content: 'my summary' });
    expect(w.text).toContain(`Created ${own}/reports/summary.md`);
    // The own copy shadows the shared one at the same relative path: the answer names the file it read (issue 29).
    expect((await callTool(agent, 'ws_read_file', { path: 'reports/summary.md' })).text).toBe(`[${own}/reports/summary.md]\nmy summary`);
    expect((await callTool(agent, 'ws_read_file', { path: `${own}/reports/summary.md` })).text).toBe('my summary');
    expect((await callTool(agent, 'ws_read_file', { path: 'pricing/price-list.md' })).text).toBe('shared prices');
    const list = (await callTool(agent, 'ws_list_files', {})).text.split('\n').map((l) => l.split('\t')[0]);
    expect(list).toEqual([`${own}/reports/summary.md`, 'pricing/price-list.md', 'reports/summary.md']);
    expect((await callTool(agent, 'ws_read_file', { path: 'nope.md' })).text).toMatch(/^Refused: file "nope\.md" was not found/);
    // Nothing shared at that path: nothing to tell apart, the text alone.
    await callTool(agent, 'ws_write_file', { path: 'reports/mine.md', content: 'only mine' });
    expect((await callTool(agent, 'ws_read_file', { path: 'reports/mine.md' })).text).toBe('only mine');
  });

  it('treats a path that starts with the own agents/<ID>/ prefix as that same file (deliberate change)', async () => {
    const { agent, own, admin } = await setup();
    const r = await callTool(agent, 'ws_write_file', { path: `${own}/notes/a.md`, content: 'x' });
    expect(r.text).toMatch(new RegExp(`^Created ${own}/notes/a\\.md `));
    expect(r.path).toBe(`${own}/notes/a.md`);
    await expect(statFile(admin, `${own}/${own}/notes/a.md`)).rejects.toThrow(/does not exist/);
    expect((await callTool(agent, 'ws_delete_file', { path: `${own}/notes/a.md` })).text).toMatch(/^Deleted /);
  });

  it('a deleted file takes its dead properties and locks with it, as at every door (issue 26)', async () => {
    const { agent, own } = await setup();
    await callTool(agent, 'ws_write_file', { path: 'props.md', content: 'x' });
    await patchDeadProps(agent, `${own}/props.md`, [{ op: 'set', ns: 'urn:x', name: 'colour', value: 'blue' }]);
    await lockPath(agent, { path: `${own}/props.md`, scope: 'exclusive', depth: '0', owner: null });
    expect((await callTool(agent, 'ws_delete_file', { path: 'props.md' })).text).toMatch(/^Deleted /);
    const db = t.platform.db.kysely;
    expect(await db.selectFrom('dav_props').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('dav_locks').selectAll().where('path', '=', `${own}/props.md`).execute()).toEqual([]);
  });

  it('tags agent files "agent: <name>" and keeps the tag when someone overwrites; unmapped runtime writes are "agent" with IDs', async () => {
    const { admin, agent, own } = await setup();
    await callTool(agent, 'create_file', { file_path: 'a.md', file_contents: 'x' });
    await putFile(admin, { path: `${own}/a.md`, source: 'by admin' });
    const info = await statFile(admin, `${own}/a.md`);
    expect(info.createdBy).toBe('agent: Researcher');
    expect(info.creator.meta).toMatchObject({ conversationId: agent.actor.kind === 'agent' ? agent.actor.conversationId : '' });
    const editor = await t.userCtx('runner', 'editor');
    const r = await callTool(
      editor,
      'ws_write_file',
      { path: 'out/run.md', content: 'r' },
      { runtime: { processId: 'proc_1', nodeId: 'node_7', conversationId: 'conv_ext' } },
    );
    expect(r.text).toMatch(/^Created out\/run\.md/);
    const u = await statFile(admin, 'out/run.md');
    expect(u.createdBy).toBe('agent');
    expect(u.creator.meta).toMatchObject({ processId: 'proc_1', nodeId: 'node_7', conversationId: 'conv_ext' });
    // Agent and runtime actions stay out of the audit log (F15).
    expect((await listAudit(admin)).entries.filter((e) => e.path === 'out/run.md' || (e.path === `${own}/a.md` && e.actor.kind !== 'user'))).toEqual([]);
  });

  it('create_file refuses existing files and validates, stores and returns permissions', async () => {
    const { agent, admin, own } = await setup();
    expect((await callTool(agent, 'create_file', { file_path: 'run.sh', file_contents: 'echo', permissions: '755', file_description: 'runner' })).text).toMatch(
      /permissions 755\); version 1/,
    );
    expect((await callTool(agent, 'create_file', { file_path: 'run.sh', file_contents: 'x' })).text).toMatch(
      /^Refused: file ".*run\.sh" already exists \(version 1\)/,
    );
    expect((await callTool(agent, 'create_file', { file_path: 'b.md', file_contents: 'x', permissions: '999' })).text).toMatch(
      /^Refused: invalid arguments — permissions: permissions must be 3 or 4 octal digits/,
    );
    expect((await statFile(admin, `${own}/run.sh`)).permissions).toBe('755');
    expect((await callTool(agent, 'full_file_rewrite', { file_path: 'run.sh', file_contents: 'echo 2' })).text).toMatch(/permissions 755\); version 2/);
    const files = JSON.parse((await callTool(agent, 'list_files', {})).text).files;
    expect(files[0]).toMatchObject({ filePath: `${own}/run.sh`, permissions: '755', description: 'runner', version: 2, createdBy: 'agent: Researcher' });
    expect(files[0].url).toContain(`/files/content?path=${encodeURIComponent(`${own}/run.sh`)}`);
    expect((await callTool(agent, 'create_file', { file_path: '/etc/passwd', file_contents: 'x' })).text).toMatch(/^Refused: path must be relative/);
  });

  it('str_replace needs exactly one match, says how many, and shows the nearest near-miss', async () => {
    const { agent } = await setup();
    await callTool(agent, 'create_file', { file_path: 'c.py', file_contents: 'def f():\n    return  1\n\nx = 1\nx = 1\n' });
    expect((await callTool(agent, 'str_replace', { file_path: 'c.py', old_str: 'x = 1', new_str: 'x = 2' })).text).toMatch(
      /^Refused: old_str occurs 2 times in ".*c\.py" \(at lines 4, 5\)/,
    );
    expect((await callTool(agent, 'str_replace', { file_path: 'c.py', old_str: 'return 1', new_str: 'return 2' })).text).toMatch(
      /nearest near-miss: line 2 has it with different whitespace: "return  1"/,
    );
    expect((await callTool(agent, 'str_replace', { file_path: 'c.py', old_str: 'DEF F():', new_str: '' })).text).toMatch(
      /line 1 has it with different case or whitespace: "def f\(\):"/,
    );
    expect((await callTool(agent, 'str_replace', { file_path: 'c.py', old_str: 'def g():', new_str: '' })).text).toMatch(
      /the most similar line is line 1: "def f\(\):"/,
    );
    const ok = await callTool(agent, 'str_replace', { file_path: 'c.py', old_str: 'return  1', new_str: 'return 2' });
    expect(ok.text).toMatch(/^Replaced 1 occurrence at line 2 of .*c\.py; version 2/);
    expect(ok.version).toBe(2);
  });

  it('read_file returns a line range with the header "lines a–b of N"', async () => {
    const { agent } = await setup();
    await callTool(agent, 'create_file', { file_path: 'l.txt', file_contents: 'one\ntwo\nthree\nfour\n' });
    const r = await callTool(agent, 'read_file', { file_path: 'l.txt', offset: 2, limit: 2 });
    expect(r.text).toMatch(/^\[agents\/agt_\w{8}\/l\.txt · version 1 · lines 2–3 of 4\]\ntwo\nthree$/);
    expect((await callTool(agent, 'read_file', { file_path: 'l.txt' })).text).toMatch(/lines 1–4 of 4\]\none\ntwo\nthree\nfour$/);
    expect((await callTool(agent, 'read_file', { file_path: 'l.txt', offset: 9 })).text).toMatch(/^Refused: offset 9 is past the end .* which has 4 lines/);
  });

  it('checks the expected version and returns the new one (B2)', async () => {
    const { agent } = await setup();
    const c = await callTool(agent, 'ws_write_file', { path: 'v.md', content: 'a', expected_version: 0 });
    expect(c.version).toBe(1);
    expect((await callTool(agent, 'ws_write_file', { path: 'v.md', content: 'b', expected_version: 0 })).text).toMatch(
      /^Refused: ".*v\.md" is at version 1, not 0; read it again and retry/,
    );
    expect((await callTool(agent, 'ws_write_file', { path: 'v.md', content: 'b', expected_version: 1 })).version).toBe(2);
    expect((await callTool(agent, 'ws_delete_file', { path: 'v.md', expected_version: 1 })).text).toMatch(/^Refused: .* is at version 2, not 1/);
  });

  it('serialises concurrent edits: parallel appends and parallel str_replace on different parts all land', async () => {
    const { agent, admin, own } = await setup();
    await Promise.all(Array.from({ length: 12 }, (_, i) => callTool(agent, 'ws_write_file', { path: 'log.md', content: `line ${i}\n`, mode: 'append' })));
    const log = (await text(admin, `${own}/log.md`)).split('\n').filter(Boolean).sort();
    expect(log).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i}`).sort());
    await callTool(agent, 'create_file', { file_path: 'doc.md', file_contents: 'alpha\nbeta\ngamma\n' });
    const [r1, r2] = await Promise.all([
      callTool(agent, 'str_replace', { file_path: 'doc.md', old_str: 'alpha', new_str: 'ALPHA' }),
      callTool(agent, 'str_replace', { file_path: 'doc.md', old_str: 'gamma', new_str: 'GAMMA' }),
    ]);
    expect([r1!.refused, r2!.refused]).toEqual([false, false]);
    expect(await text(admin, `${own}/doc.md`)).toBe('ALPHA\nbeta\nGAMMA\n');
    expect([r1!.version, r2!.version].sort()).toEqual([2, 3]);
  });

  it('records every call in the conversation trace, refusals included', async () => {
    const { agent, admin, conv } = await setup();
    await callTool(agent, 'ws_write_file', { path: 'a.md', content: 'x'.repeat(500) });
    await callTool(agent, 'ws_read_file', { path: 'missing.md' });
    // Refused inside the write's transaction (its entry is written there on success): traced once, as refused.
    expect((await callTool(agent, 'ws_write_file', { path: 'a.md', content: 'y', expected_version: 7 })).code).toBe('version_conflict');
    const { entries } = await listTrace(admin, conv.id);
    expect(entries.map((e) => [e.tool, e.refused])).toEqual([
      ['ws_write_file', false],
      ['ws_read_file', true],
      ['ws_write_file', true],
    ]);
    expect(entries[2]!.result).toMatch(/^Refused: .*is at version 1, not 7/);
    // The entry written in the change's transaction carries the answer the model got.
    const made = await callTool(agent, 'create_file', { file_path: 'b.md', file_contents: 'one\ntwo\n' });
    const edited = await callTool(agent, 'str_replace', { file_path: 'b.md', old_str: 'two', new_str: 'three' });
    const later = (await listTrace(admin, conv.id)).entries.slice(3);
    expect(later.map((e) => [e.tool, e.result, e.path, e.version])).toEqual([
      ['create_file', made.text, made.path, 1],
      ['str_replace', edited.text, edited.path, 2],
    ]);
    expect(edited.text).toMatch(/^Replaced 1 occurrence at line 2 of /);
    expect(entries[0]!.args).toMatch(/"content":"x{120}…\(500 chars\)"/);
    expect(entries[0]!.version).toBe(1);
    expect(entries[1]!.result).toMatch(/^Refused: file "missing\.md" was not found/);
    expect(entries[0]!.durationMs).toBeGreaterThanOrEqual(0);
    const viewer = await t.userCtx('outsider', 'viewer');
    await expect(listTrace(viewer, conv.id)).rejects.toMatchObject({ code: 'not_found', message: `conversation "${conv.id}" does not exist` });
  });

  it('refuses everything when file access is off, and unknown tools or bad arguments', async () => {
    t = await createTestPlatform(kind);
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Off' });
    const agent = await t.agentCtx(a.id);
    expect((await callTool(agent, 'ws_list_files', {})).text).toBe('Refused: file access is turned off for this agent; its owner can turn it on');
    expect((await callTool(agent, 'rm_rf', {})).text).toBe('Refused: there is no tool "rm_rf"');
    await updateAgent(admin, a.id, { files: 'on' });
    expect((await callTool(await t.agentCtx(a.id), 'ws_write_file', { path: 'a.md' })).text).toMatch(/^Refused: invalid arguments — content: /);
  });

  it('a publication token acts with the frozen settings on the live storage (A7)', async () => {
    const { admin, a } = await setup({ write: 'project' });
    await publishAgent(admin, a.id);
    await updateAgent(admin, a.id, { files: 'off' });
    const live = await t.agentCtx(a.id);
    expect((await callTool(live, 'ws_list_files', {})).refused).toBe(true);
    const tok = await createToken(admin, { agent: a.id, published: true });
    const published = await contextFor(t.platform, await authenticate(t.platform, tok.token), {});
    const r = await callTool(published, 'ws_write_file', { path: 'shared/from-publication.md', content: 'p' });
    expect(r.text).toMatch(/^Created shared\/from-publication\.md/);
    expect((await statFile(admin, 'shared/from-publication.md')).createdBy).toBe('agent: Researcher');
  });
});
