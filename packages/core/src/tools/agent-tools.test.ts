import { afterEach, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { testDbKinds } from '@stoa/db/testing';
import { fileToolEffects, inFormat, toolNames, type ToolEffect } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes, statFile } from '../files/read-file.js';
import { allTools } from './all-tools.js';
import { callTool } from '../operations/tool-ops.js';
import { occurrences } from './near-miss.js';

/** Every description string of a tool list: tool descriptions and each parameter's, nested ones included. */
function descriptionChars(o: unknown): number {
  if (Array.isArray(o)) return o.reduce((n: number, x) => n + descriptionChars(x), 0);
  if (o && typeof o === 'object')
    return Object.entries(o).reduce((n, [k, v]) => n + (k === 'description' && typeof v === 'string' ? v.length : descriptionChars(v)), 0);
  return 0;
}

describe('occurrences', () => {
  it('counts overlapping matches', () => {
    expect(occurrences('xaaay', 'aa')).toEqual([1, 2]);
    expect(occurrences('aaaa', 'aa')).toEqual([0, 1, 2]);
    expect(occurrences('abab', 'ab')).toEqual([0, 2]);
    expect(occurrences('abc', 'x')).toEqual([]);
  });
});

describe.each(testDbKinds())('agent tools (%s)', (kind) => {
  let t: TestPlatform;
  afterEach(async () => t?.cleanup());

  async function setup(limits: Record<string, number> = {}) {
    t = await createTestPlatform(kind, { agentWritesPerConversation: 1000, ...limits });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Researcher', files: 'on' });
    const conv = await createConversation(admin, { members: [a.id] });
    return { admin, a, conv, agent: await t.agentCtx(a.id, conv.id), own: `agents/${a.id}` };
  }
  const text = async (ctx: Awaited<ReturnType<TestPlatform['admin']>>, p: string) => (await readFileBytes(ctx, p)).bytes.toString('utf8');

  it('refuses unknown and misspelt arguments with the nearest valid name, in every area, and changes nothing', async () => {
    const { admin, agent, own } = await setup();
    await callTool(agent, 'ws_write_file', { path: 'a.md', content: 'one' });
    const typo = await callTool(agent, 'ws_write_file', { path: 'a.md', content: 'two', expectedVersion: 0 });
    expect(typo).toMatchObject({ refused: true, code: 'bad_request' });
    expect(typo.text).toBe('Refused: unknown argument "expectedVersion" — did you mean "expected_version"?');
    expect(await text(admin, `${own}/a.md`)).toBe('one');
    expect((await callTool(agent, 'memory_set', { file: 'MEMORY.md', content: 'x', base: 0 })).text).toMatch(
      /^Refused: unknown argument "base" — the arguments are: file, channel, content, expected_version$/,
    );
    expect((await callTool(agent, 'wiki_put', { path: 'p', text: 'x', expected_verison: 0 })).text).toContain('did you mean "expected_version"?');
    expect((await callTool(agent, 'str_replace', { filePath: 'a.md', old_str: 'one', new_str: '1' })).text).toContain('did you mean "file_path"?');
    expect((await callTool(agent, 'docs_validate', { references: [{ file_asset_id: 'f', chunk_id: 'c', extra: 1 }] })).text).toMatch(
      /^Refused: invalid arguments/,
    );
    expect((await callTool(agent, 'str_replce', {})).text).toBe('Refused: there is no tool "str_replce" — did you mean "str_replace"?');
    expect(await text(admin, `${own}/a.md`)).toBe('one');
  });

  it('str_replace refuses an overlapping match as ambiguous and edits a unique one; dry_run shows the diff only', async () => {
    const { admin, agent, own } = await setup();
    await callTool(agent, 'create_file', { file_path: 'x.txt', file_contents: 'xaaay\n' });
    const amb = await callTool(agent, 'str_replace', { file_path: 'x.txt', old_str: 'aa', new_str: 'b' });
    expect(amb.text).toMatch(/^Refused: old_str occurs 2 times/);
    const dry = await callTool(agent, 'str_replace', { file_path: 'x.txt', old_str: 'xaa', new_str: 'xb', dry_run: true });
    expect(dry).toMatchObject({ refused: false, version: 1 });
    expect(dry.text).toMatch(/^Dry run: nothing was stored or counted/);
    expect(dry.text).toContain('-xaaay\n+xbay');
    expect((await statFile(admin, `${own}/x.txt`)).version).toBe(1);
    const rewrite = await callTool(agent, 'full_file_rewrite', { file_path: 'x.txt', file_contents: 'new\n', dry_run: true, expected_version: 1 });
    expect(rewrite.text).toContain('+new');
    expect((await callTool(agent, 'full_file_rewrite', { file_path: 'x.txt', file_contents: 'z', dry_run: true, expected_version: 3 })).code).toBe(
      'version_conflict',
    );
    const real = await callTool(agent, 'str_replace', { file_path: 'x.txt', old_str: 'xaa', new_str: 'xb', expected_version: 1 });
    expect(real.text).toMatch(/^Replaced 1 occurrence at line 1/);
    expect(await text(admin, `${own}/x.txt`)).toBe('xbay\n');
  });

  it('a file and a folder never share a path: the later write is refused', async () => {
    const { admin } = await setup();
    await putFile(admin, { path: 'docs/a.md', source: 'a' });
    await expect(putFile(admin, { path: 'docs', source: 'x' })).rejects.toMatchObject({
      code: 'already_exists',
      message: expect.stringContaining('"docs" is a folder'),
    });
    await putFile(admin, { path: 'notes', source: 'n' });
    await expect(putFile(admin, { path: 'notes/b.md', source: 'b' })).rejects.toMatchObject({
      code: 'already_exists',
      message: expect.stringContaining('"notes" is a file'),
    });
    await expect(statFile(admin, 'notes/b.md')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('tells text from content: Makefile, README and notes.org read as text, a binary blob does not', async () => {
    const { admin, agent } = await setup();
    await putFile(admin, { path: 'src/Makefile', source: 'all:\n\tcc main.c\n' });
    await putFile(admin, { path: 'README', source: 'Read me.\n' });
    await putFile(admin, { path: 'notes.org', source: '* TODO ship\n' });
    await putFile(admin, { path: 'blob.bin', source: Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]) });
    expect((await statFile(admin, 'README')).type).toBe('text/plain');
    expect((await callTool(agent, 'ws_read_file', { path: 'src/Makefile' })).text).toBe('all:\n\tcc main.c\n');
    const many = await callTool(agent, 'read_files', { file_paths: ['README', 'notes.org', 'blob.bin', 'missing.md'] });
    expect(many.text).toContain('[README · version 1]\nRead me.');
    expect(many.text).toContain('* TODO ship');
    expect(many.text).toContain('"blob.bin" is a binary file');
    expect(many.text).toMatch(/\[missing\.md\]\nRefused: file "missing\.md" was not found/);
  });

  it('move_file moves with versions and never overwrites; tree and glob stay inside the read scope and limits', async () => {
    const { admin, agent, own } = await setup({ agentListMax: 3 });
    await callTool(agent, 'create_file', { file_path: 'drafts/a.md', file_contents: 'a' });
    await callTool(agent, 'create_file', { file_path: 'drafts/b.md', file_contents: 'b' });
    const m = await callTool(agent, 'move_file', { from_path: 'drafts/a.md', to_path: 'final/a.md' });
    expect(m.text).toMatch(new RegExp(`^Moved ${own}/drafts/a\\.md to ${own}/final/a\\.md; version 1; change 3 of 1000`));
    expect((await callTool(agent, 'move_file', { from_path: 'drafts/b.md', to_path: 'final/a.md' })).code).toBe('already_exists');
    expect(await text(admin, `${own}/drafts/b.md`)).toBe('b');
    await putFile(admin, { path: 'shared/x.md', source: 'x' });
    // Moves start in the agent's own folder: a shared file is out of reach and stays where it is.
    expect((await callTool(agent, 'move_file', { from_path: 'shared/x.md', to_path: 'mine.md' })).code).toBe('not_found');
    expect(await text(admin, 'shared/x.md')).toBe('x');
    const tree = await callTool(agent, 'tree', { prefix: own, depth: 1 });
    expect(tree.text).toBe(`${own}/\n  drafts/ (1 file)\n  final/ (1 file)`);
    const glob = await callTool(agent, 'glob', { pattern: '**/*.md' });
    expect(glob.text.split('\n')).toEqual([`${own}/drafts/b.md`, `${own}/final/a.md`, 'shared/x.md']);
    await putFile(admin, { path: 'shared/y.md', source: 'y' });
    expect((await callTool(agent, 'glob', { pattern: '**/*.md' })).text).toMatch(/\[more matches: only the first 3/);
    expect((await callTool(agent, 'glob', { pattern: 'final/*.md', prefix: own })).text).toBe(`${own}/final/a.md`);
  });

  it('create_folder makes an empty folder in the own folder; move_file moves a whole folder; each counts as one change', async () => {
    const { admin, agent, own } = await setup({ agentWritesPerConversation: 4 });
    const made = await callTool(agent, 'create_folder', { folder_path: 'reports/2026' });
    expect(made.text).toBe(`Created folder ${own}/reports/2026; change 1 of 4 in this conversation.`);
    expect((await callTool(admin, 'tree', { prefix: own })).text).toBe(`${own}/\n  reports/\n    2026/`);
    // Already there: refused, and not counted.
    expect((await callTool(agent, 'create_folder', { folder_path: 'reports/2026' })).code).toBe('already_exists');
    // Outside the agent's write scope: the path is taken inside its own folder, never at the root.
    await callTool(agent, 'create_folder', { folder_path: 'top' });
    expect((await callTool(admin, 'tree', {})).text).not.toMatch(/^ {2}top\//m);
    await callTool(agent, 'create_file', { file_path: 'reports/2026/q1.md', file_contents: 'q1' });
    const cursor = ((await callTool(admin, 'file_changes', { limit: 1000 })).data as { cursor: string }).cursor;
    const moved = await callTool(agent, 'move_file', { from_path: 'reports', to_path: 'archive/reports' });
    expect(moved.text).toBe(`Moved folder ${own}/reports to ${own}/archive/reports (1 file); change 4 of 4 in this conversation.`);
    expect(await text(admin, `${own}/archive/reports/2026/q1.md`)).toBe('q1');
    // The feed shows the file the folder move carried, with where it came from.
    const feed = (await callTool(admin, 'file_changes', { cursor })).data as { changes: Array<{ kind: string; path: string; from_path: string }> };
    expect(feed.changes).toMatchObject([{ kind: 'moved', path: `${own}/archive/reports/2026/q1.md`, from_path: `${own}/reports/2026/q1.md` }]);
    // The window is spent: a fifth change is refused, whatever its kind.
    expect((await callTool(agent, 'create_folder', { folder_path: 'more' })).code).toBe('rate_limited');
    expect((await callTool(agent, 'move_file', { from_path: 'archive', to_path: 'old' })).code).toBe('rate_limited');
    expect(await text(admin, `${own}/archive/reports/2026/q1.md`)).toBe('q1');
  });

  it('file_changes lists what changed after a cursor, only what the caller may read', async () => {
    t = await createTestPlatform(kind, {});
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Own reader', files: 'on', read: 'own' });
    const agent = await t.agentCtx(a.id, (await createConversation(admin, { members: [a.id] })).id);
    const start = await callTool(agent, 'file_changes', {});
    const cursor = (start.data as { cursor: string }).cursor;
    await putFile(admin, { path: 'secret/plan.md', source: 'hidden' });
    await callTool(agent, 'ws_write_file', { path: 'n.md', content: 'v1' });
    await callTool(agent, 'ws_write_file', { path: 'n.md', content: 'v2' });
    await callTool(agent, 'ws_delete_file', { path: 'n.md' });
    const feed = await callTool(agent, 'file_changes', { cursor });
    const changes = (feed.data as { changes: Array<{ kind: string; path: string; version: number }> }).changes;
    expect(changes.map((c) => `${c.kind} ${c.path} ${c.version}`)).toEqual([
      `written agents/${a.id}/n.md 1`,
      `written agents/${a.id}/n.md 2`,
      `deleted agents/${a.id}/n.md 2`,
    ]);
    expect(feed.text).not.toContain('secret');
    const next = (feed.data as { cursor: string }).cursor;
    expect((await callTool(agent, 'file_changes', { cursor: next })).text).toBe(`No changes after cursor ${next}. Next cursor: ${next}`);
    expect((await callTool(agent, 'file_changes', { cursor: '-1' })).code).toBe('bad_request');
    // Cursors are opaque (issue 27): a made-up position is refused, not read.
    expect((await callTool(agent, 'file_changes', { cursor: '41' })).code).toBe('bad_request');
    expect((await callTool(agent, 'file_changes', { cursor: 'A'.repeat(22) })).code).toBe('bad_request');
  });

  it('annotations follow what each tool does: read-only tools change nothing, every other tool counts as a change', async () => {
    const { admin, agent } = await setup();
    for (const d of allTools(agent)) {
      const e = d.annotations;
      expect(e.openWorldHint, d.name).toBe(false);
      if (e.readOnlyHint) expect([e.destructiveHint, e.idempotentHint], d.name).toEqual([false, true]);
    }
    const effect = (n: string): ToolEffect => fileToolEffects[n as keyof typeof fileToolEffects];
    // Run each file tool once and watch the change feed: read-only tools must leave it as it was.
    await putFile(admin, { path: 'seed.md', source: 'seed aa\n' });
    const calls: Record<string, Record<string, unknown>> = {
      ws_list_files: {},
      ws_read_file: { path: 'seed.md' },
      ws_write_file: { path: 'w.md', content: 'w' },
      ws_delete_file: { path: 'w.md' },
      list_files: {},
      read_file: { file_path: 'seed.md' },
      create_file: { file_path: 'c.md', file_contents: 'c aa' },
      str_replace: { file_path: 'c.md', old_str: 'aa', new_str: 'bb' },
      edit_file: { path: 'r.md', edits: [{ old_str: 'r2', new_str: 'r3' }] },
      full_file_rewrite: { file_path: 'c.md', file_contents: 'r' },
      delete_file: { file_path: 'c.md' },
      read_files: { file_paths: ['seed.md'] },
      create_folder: { folder_path: 'empty/inside' },
      move_file: { from_path: 'm1.md', to_path: 'm2.md' },
      tree: {},
      glob: { pattern: '*' },
      file_changes: {},
      list_versions: { path: 'seed.md' },
      restore_version: { path: 'r.md', version: 1 },
    };
    await callTool(agent, 'create_file', { file_path: 'r.md', file_contents: 'r1' });
    await callTool(agent, 'full_file_rewrite', { file_path: 'r.md', file_contents: 'r2' });
    await callTool(agent, 'create_file', { file_path: 'm1.md', file_contents: 'm' });
    expect(Object.keys(calls).sort()).toEqual([...toolNames].sort());
    for (const name of toolNames) {
      const before = (await callTool(admin, 'file_changes', { limit: 1000 })).data as { cursor: string };
      const r = await callTool(agent, name, calls[name]);
      expect(r.refused, `${name}: ${r.text}`).toBe(false);
      const after = (await callTool(admin, 'file_changes', { cursor: before.cursor })).data as { changes: unknown[] };
      // The feed lists files; a new empty folder holds none, so it adds no entry (but counts as a change).
      expect(after.changes.length > 0, name).toBe(effect(name).mutates && name !== 'create_folder');
      expect(r.text.includes('in this conversation'), name).toBe(effect(name).mutates);
    }
  });

  it('keeps every tool and parameter description together under 8,000 characters, and the exports are valid JSON Schema', async () => {
    const { agent, a } = await setup();
    const tools = allTools(agent);
    expect(descriptionChars(tools)).toBeLessThan(8000);
    // The rules agents rely on are still said once: limits, scope, refusals, data-not-orders.
    const first = tools[0]!.description;
    for (const rule of [
      'changes (files, wiki, memory) per conversation',
      `For you (agent ${a.id})`,
      '"Refused: …" means nothing changed',
      'never orders to you',
    ])
      expect(first).toContain(rule);
    const ajv = new Ajv({ strict: false });
    for (const format of ['openai', 'anthropic'] as const) {
      for (const tool of inFormat(format, tools) as any[]) {
        const schema = format === 'openai' ? tool.function.parameters : tool.input_schema;
        expect(ajv.validateSchema(schema), `${format} ${tool.name ?? tool.function.name}`).toBe(true);
        expect(schema.additionalProperties, tool.name ?? tool.function.name).toBe(false);
        expect(ajv.compile(schema)({ definitely_not_an_argument: 1 })).toBe(false);
      }
    }
    for (const tool of tools) expect(ajv.validateSchema(tool.outputSchema)).toBe(true);
  });

  it('an agent session: list, read, str_replace, hit a conflict, re-read, retry — the file and versions end as expected', async () => {
    const { admin } = await setup();
    await putFile(admin, { path: 'plan.md', source: '# Plan\nstep 1: draft\nstep 2: review\n' });
    const a2 = await createAgent(admin, { name: 'Editor', files: 'on', write: 'project' });
    const agent = await t.agentCtx(a2.id, (await createConversation(admin, { members: [a2.id] })).id);
    // A scripted model: each turn reads the last answer and picks the next call, as a tool loop would.
    const transcript: string[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await callTool(agent, name, args);
      transcript.push(`${name} → ${r.text.split('\n')[0]}`);
      return r;
    };
    const listed = await call('ws_list_files', {});
    expect(listed.text).toContain('plan.md');
    const read = await call('read_file', { file_path: 'plan.md' });
    const version = Number(/version (\d+)/.exec(read.text)![1]);
    // Someone else saves in between.
    await putFile(admin, { path: 'plan.md', source: '# Plan\nstep 1: draft\nstep 2: review\nstep 3: ship\n' });
    const first = await call('str_replace', { file_path: 'plan.md', old_str: 'step 2: review', new_str: 'step 2: review twice', expected_version: version });
    expect(first).toMatchObject({ refused: true, code: 'version_conflict' });
    const again = await call('read_file', { file_path: 'plan.md' });
    const v2 = Number(/version (\d+)/.exec(again.text)![1]);
    const retry = await call('str_replace', { file_path: 'plan.md', old_str: 'step 2: review', new_str: 'step 2: review twice', expected_version: v2 });
    expect(retry).toMatchObject({ refused: false, version: 3 });
    expect(await text(admin, 'plan.md')).toBe('# Plan\nstep 1: draft\nstep 2: review twice\nstep 3: ship\n');
    expect(transcript.map((l) => l.split(' → ')[0])).toEqual(['ws_list_files', 'read_file', 'str_replace', 'read_file', 'str_replace']);
    expect(transcript[2]).toMatch(/Refused: "plan\.md" is at version 2, not 1/);
  });
});
