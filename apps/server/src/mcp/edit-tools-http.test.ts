import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createAgent, createConversation, createToken, readFileBytes } from '@stoa/core/testing';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../http/test-app.js';

/**
 * The history and precise-edit tools (issue 29 item 2) over MCP Streamable HTTP, as an agent's client calls them:
 * edit_file's dry run and its all-or-nothing edits, then list_versions and restore_version, in one window.
 */
describe.each(testDbKinds())('edit_file and list_versions over MCP HTTP (%s)', (kind) => {
  let s: TestApp;
  let base: string;
  let token: string;
  let conv: string;
  let own: string;

  beforeAll(async () => {
    s = await createTestApp(kind, { agentWritesPerConversation: 3 });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Scribe', files: 'on' });
    own = `agents/${agent.id}`;
    token = (await createToken(admin, { agent: agent.id })).token;
    conv = (await createConversation(admin, { members: [agent.id] })).id;
  });
  afterAll(() => s?.close());

  const text = (r: any) => String(r.content?.[0]?.text ?? '');

  it('edits in one call, all or none, lists the versions and restores one, counting each change once', async () => {
    const client = new Client({ name: 'edit-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp?conversation=${conv}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['edit_file', 'list_versions', 'restore_version', 'wiki_edit', 'memory_edit']));
      const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<any>;

      expect(text(await call('ws_write_file', { path: 'plan.md', content: 'alpha\nbeta\ngamma\n' }))).toMatch(/change 1 of 3/);
      const dry = await call('edit_file', { path: 'plan.md', edits: [{ old_str: 'beta', new_str: 'бета' }], dry_run: true });
      expect(dry.isError).toBeFalsy();
      expect(dry.structuredContent.data.diff).toContain('-beta\n+бета');

      const refused = await call('edit_file', {
        path: 'plan.md',
        edits: [
          { old_str: 'alpha', new_str: 'A' },
          { old_str: 'delta', new_str: 'D' },
        ],
      });
      expect([refused.isError, refused.structuredContent.code]).toEqual([true, 'not_found']);
      expect(text(refused)).toMatch(/^Refused: edits\[1\] of 2: old_str was not found/);

      const edited = await call('edit_file', {
        path: 'plan.md',
        edits: [
          { old_str: 'alpha', new_str: 'A' },
          { old_str: 'gamma', new_str: '伽马' },
        ],
        expected_version: 1,
      });
      expect(text(edited)).toBe(`Applied 2 edits to ${own}/plan.md (at lines 1, 3); version 2; change 2 of 3 in this conversation.`);

      const versions = await call('list_versions', { path: 'plan.md' });
      expect(versions.structuredContent.data.versions).toEqual([
        expect.objectContaining({ version: 2, author: 'agent: Scribe', current: true }),
        expect.objectContaining({ version: 1, author: 'agent: Scribe', current: false }),
      ]);

      expect(text(await call('restore_version', { path: 'plan.md', version: 1 }))).toBe(
        `Restored version 1 of ${own}/plan.md as version 3; change 3 of 3 in this conversation.`,
      );
      const over = await call('restore_version', { path: 'plan.md', version: 2 });
      expect([over.isError, over.structuredContent.code]).toEqual([true, 'rate_limited']);
      expect((await readFileBytes(await s.t.admin(), `${own}/plan.md`)).bytes.toString('utf8')).toBe('alpha\nbeta\ngamma\n');
    } finally {
      await client.close();
    }
  });
});
