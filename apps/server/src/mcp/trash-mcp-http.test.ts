import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createAgent, createConversation, createToken, deleteFile, listVersions, putFile, readFileBytes } from '@stoa/core/testing';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../http/test-app.js';

/**
 * Issue 29 through MCP Streamable HTTP: a file an agent deletes with ws_delete_file goes to the trash with its
 * versions. The agent's token then lists over HTTP only the entries it may read, restores its own, and may not
 * purge; a person's deleted file outside its read scope stays unknown to it (404).
 */
describe.each(testDbKinds())('ws_delete_file goes to the trash (MCP over HTTP, %s)', (kind) => {
  let s: TestApp;
  let base: string;
  let token: string;
  let conv: string;
  let own: string;

  beforeAll(async () => {
    s = await createTestApp(kind);
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Tidy', files: 'on', read: 'own' });
    own = `agents/${agent.id}`;
    token = (await createToken(admin, { agent: agent.id })).token;
    conv = (await createConversation(admin, { members: [agent.id] })).id;
  });
  afterAll(() => s?.close());

  const api = (method: string, url: string) =>
    fetch(`${base}/api/v1/projects/default${url}`, { method, headers: { authorization: `Bearer ${token}`, 'x-stoa-conversation': conv } });

  it('deletes into the trash; the agent sees and restores its own entry, never a person’s outside its scope', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'private/salaries.md', source: 'secret' });
    const client = new Client({ name: 'trash-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp?conversation=${conv}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<any>;
      await call('ws_write_file', { path: 'draft.md', content: 'one' });
      await call('ws_write_file', { path: 'draft.md', content: 'two' });
      const del = await call('ws_delete_file', { path: 'draft.md' });
      expect(del.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    await deleteFile(admin, { path: 'private/salaries.md' });
    const people = await (await fetch(`${base}/api/v1/projects/default/trash`, { headers: { authorization: `Bearer ${s.adminToken}` } })).json();
    const secret = people.items.find((i: { path: string }) => i.path === 'private/salaries.md');
    expect(secret).toBeDefined();

    const listed = await (await api('GET', '/trash')).json();
    expect(listed.items).toEqual([expect.objectContaining({ path: `${own}/draft.md`, deletedBy: expect.objectContaining({ kind: 'agent', label: 'Tidy' }) })]);
    expect(listed.mayPurge).toBe(false);
    expect((await api('POST', `/trash/${secret.id}/restore`)).status).toBe(404);
    expect((await api('DELETE', `/trash/${listed.items[0].id}`)).status).toBe(403);
    const restored = await api('POST', `/trash/${listed.items[0].id}/restore`);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ path: `${own}/draft.md`, beside: false });
    expect((await readFileBytes(admin, `${own}/draft.md`)).bytes.toString()).toBe('two');
    expect((await listVersions(admin, `${own}/draft.md`)).map((v) => v.version)).toEqual([2, 1]);
  });
});
