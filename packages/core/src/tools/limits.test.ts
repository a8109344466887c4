import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { testDbKinds } from '@stoa/db/testing';
import type { Limits } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { putFile } from '../files/put-file.js';
import { callTool } from '../operations/tool-ops.js';

const sourceUrl = (p: string) => pathToFileURL(join(import.meta.dirname, p)).href;

/** Runs an ES module's body in a new Node process with the TypeScript sources; what it printed. */
async function inAnotherProcess(body: string): Promise<string> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, '--input-type=module', '-e', body]);
  return stdout;
}

/** Limits of A4 with small settings, so each is reached in a few calls. */
describe.each(testDbKinds())('tool limits (%s)', (kind) => {
  let t: TestPlatform;
  let now = new Date('2026-10-01T10:00:00Z');
  afterEach(async () => t?.cleanup());

  async function setup(limits: Partial<Limits>) {
    now = new Date('2026-10-01T10:00:00Z');
    t = await createTestPlatform(kind, limits, { clock: () => now });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Writer', files: 'on' });
    const conv = await createConversation(admin, { members: [a.id] });
    return { admin, a, conv, agent: await t.agentCtx(a.id, conv.id) };
  }

  it('lists at most STOA_AGENT_LIST_MAX files and says there are more', async () => {
    const { admin, agent } = await setup({ agentListMax: 3 });
    for (let i = 0; i < 5; i++) await putFile(admin, { path: `docs/f${i}.md`, source: 'x' });
    const r = await callTool(agent, 'ws_list_files', { prefix: 'docs' });
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^docs\/f0\.md\t1\ttext\/markdown\t2026-10-01T10:00:00/);
    expect(lines[3]).toMatch(/only the first 3/);
    const json = JSON.parse((await callTool(agent, 'list_files', {})).text);
    expect(json.files).toHaveLength(3);
    expect(json.truncated).toBe(true);
  });

  it('does not read files over STOA_AGENT_READ_BYTES and cuts text at STOA_AGENT_READ_CHARS with a marker', async () => {
    const { admin, agent } = await setup({ agentReadBytes: 100, agentReadChars: 10 });
    await putFile(admin, { path: 'big.md', source: 'a'.repeat(101) });
    await putFile(admin, { path: 'mid.md', source: '日本語のテキストです。長い文章。' });
    expect((await callTool(agent, 'ws_read_file', { path: 'big.md' })).text).toMatch(/^Refused: "big\.md" is 101 bytes, over the 100-byte limit/);
    const r = await callTool(agent, 'ws_read_file', { path: 'mid.md' });
    expect(r.text.startsWith('日本語のテキストです。'.slice(0, 10))).toBe(true);
    expect(r.text).toMatch(/\[truncated: 6 of 16 characters cut;/);
  });

  it('gives only type and size for binary files', async () => {
    const { admin, agent } = await setup({});
    await putFile(admin, { path: 'scan.pdf', source: Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2]) });
    const r = await callTool(agent, 'ws_read_file', { path: 'scan.pdf' });
    expect(r.refused).toBe(false);
    expect(r.text).toBe('"scan.pdf" is a binary file: type application/pdf, 7 bytes. Only text files can be read; its content is not shown.');
  });

  it('refuses writes over STOA_AGENT_WRITE_BYTES without counting them', async () => {
    const { agent } = await setup({ agentWriteBytes: 10, agentWritesPerConversation: 1 });
    expect((await callTool(agent, 'ws_write_file', { path: 'a.md', content: '12345678901' })).text).toMatch(/^Refused: content is 11 bytes; at most 10 bytes/);
    expect((await callTool(agent, 'ws_write_file', { path: 'a.md', content: '1234567890' })).text).toMatch(
      /^Created agents\/agt_\w{8}\/a\.md \(10 bytes\); version 1, type text\/markdown; change 1 of 1/,
    );
  });

  it('allows STOA_AGENT_WRITES_PER_CONVERSATION changes per conversation, resets the window, and refusals do not count', async () => {
    const { admin, a, agent } = await setup({ agentWritesPerConversation: 3, agentWriteWindowSeconds: 60, quotaBytes: 1000 });
    expect((await callTool(agent, 'ws_write_file', { path: '../x.md', content: 'x' })).text).toMatch(/^Refused: segment "\.\." is not allowed/);
    expect((await callTool(agent, 'ws_write_file', { path: 'big.md', content: 'x'.repeat(2000) })).text).toMatch(/^Refused: not enough storage space/);
    expect((await callTool(agent, 'ws_write_file', { path: 'a.md', content: '1' })).refused).toBe(false);
    expect((await callTool(agent, 'ws_write_file', { path: 'a.md', content: '2', mode: 'append' })).refused).toBe(false);
    expect((await callTool(agent, 'create_file', { file_path: 'a.md', file_contents: 'again' })).text).toMatch(/^Refused: file ".*a\.md" already exists/);
    expect((await callTool(agent, 'ws_delete_file', { path: 'a.md' })).text).toMatch(/change 3 of 3/);
    const over = await callTool(agent, 'ws_write_file', { path: 'b.md', content: '3' });
    expect(over.text).toMatch(
      /^Refused: you have made 3 changes to files in this conversation, the limit is 3; the counter resets at 2026-10-01T10:01:00\.000Z/,
    );
    expect(over.code).toBe('rate_limited');
    // Another conversation has its own budget.
    const conv2 = await createConversation(admin, { members: [a.id] });
    expect((await callTool(await t.agentCtx(a.id, conv2.id), 'ws_write_file', { path: 'c.md', content: 'c' })).refused).toBe(false);
    // The counter is in the database: a second process on the same database sees it. A real process: two
    // platforms in one process would share one event loop, and on SQLite a statement of one waiting on the
    // other's transaction would stall it until the busy timeout.
    await t.platform.outbox.idle();
    const code = await inAnotherProcess(`
      const { openPlatform } = await import(${JSON.stringify(sourceUrl('../open-platform.ts'))});
      const { contextFor } = await import(${JSON.stringify(sourceUrl('../context.ts'))});
      const { callTool } = await import(${JSON.stringify(sourceUrl('../operations/tool-ops.ts'))});
      const other = await openPlatform(${JSON.stringify(t.platform.config)}, { clock: () => new Date(${JSON.stringify(now.toISOString())}) });
      const ctx = await contextFor(other, ${JSON.stringify({ kind: 'agent', agentId: a.id, projectId: agent.project.id })}, ${JSON.stringify({
        conversationId: agent.actor.kind === 'agent' ? agent.actor.conversationId : null,
      })});
      const r = await callTool(ctx, 'ws_write_file', { path: 'b.md', content: '3' });
      await other.close();
      process.stdout.write(String(r.code));`);
    expect(code).toBe('rate_limited');
    // One window after the first change, the counter starts again.
    now = new Date('2026-10-01T10:01:00Z');
    expect((await callTool(agent, 'ws_write_file', { path: 'b.md', content: '3' })).text).toMatch(/change 1 of 3/);
  });

  it('counts changes made at once exactly: as many as the limit succeed, the rest are refused and not counted', async () => {
    const { agent } = await setup({ agentWritesPerConversation: 5, agentWriteWindowSeconds: 60 });
    // Memory appends are counted by the operation runner (its write-window step), each as a statement of its own.
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => callTool(agent, 'memory_append', { file: 'MEMORY.md', text: `line ${i}` })));
    const done = results.filter((r) => !r.refused);
    expect(done).toHaveLength(5);
    expect(results.filter((r) => r.code === 'rate_limited')).toHaveLength(7);
    const memory = await callTool(agent, 'memory_get', { file: 'MEMORY.md' });
    expect(memory.text.match(/line \d+/g)).toHaveLength(5);
    // The refused ones gave nothing back that was not theirs: one window later the budget is whole again.
    now = new Date('2026-10-01T10:01:00Z');
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => callTool(agent, 'memory_append', { file: 'MEMORY.md', text: `later ${i}` })));
    expect(again.filter((r) => r.refused)).toHaveLength(0);
    expect((await callTool(agent, 'memory_append', { file: 'MEMORY.md', text: 'one too many' })).code).toBe('rate_limited');
  });
});
