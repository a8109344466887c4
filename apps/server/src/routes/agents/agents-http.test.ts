import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';

let t: TestPlatform;
let app: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await createTestPlatform('sqlite', { agentWritesPerConversation: 2 });
  app = await buildApp({ platform: t.platform, webRoot: null });
  admin = (await createToken(await t.admin(), { user: 'admin' })).token;
});
afterAll(async () => {
  await app.close();
  await t.cleanup();
});

const api = async (method: string, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
  const r = await app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: r.statusCode, body: r.json() as any };
};

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('agents, conversations, trace and tool calls over HTTP', { shuffle: false }, () => {
  it('manages agents: defaults of A1, rename keeps the folder, copy gets a new ID, publish freezes settings', async () => {
    const c = await api('POST', '/projects/default/agents', admin, { name: 'Scout' });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: 'Scout', files: 'off', write: 'own', read: 'project', folder: `agents/${c.body.id}/`, published: null });
    expect(c.body.id).toMatch(/^agt_[A-Za-z0-9]{8}$/);
    const r = await api('PATCH', `/projects/default/agents/${c.body.id}`, admin, { name: 'Scout 2', files: 'on' });
    expect(r.body).toMatchObject({ name: 'Scout 2', files: 'on', folder: `agents/${c.body.id}/` });
    const copy = await api('POST', `/projects/default/agents/${c.body.id}/copy`, admin, {});
    expect(copy.body.id).not.toBe(c.body.id);
    expect(copy.body.folder).toBe(`agents/${copy.body.id}/`);
    const p = await api('POST', `/projects/default/agents/${c.body.id}/publish`, admin, {});
    expect(p.body.published).toMatchObject({ access: { enabled: true, write: 'own', read: 'project' } });
    expect((await api('GET', '/projects/default/agents', admin)).body.map((a: any) => a.name)).toEqual(['Scout 2', 'Scout 2 (copy)']);
    expect((await api('DELETE', `/projects/default/agents/${copy.body.id}`, admin)).body).toEqual({ ok: true });
    expect((await api('GET', `/projects/default/agents/${copy.body.id}`, admin)).status).toBe(404);
    expect((await api('POST', '/projects/default/agents', admin, { name: 'x', write: 'everything' })).status).toBe(400);
  });

  it('runs tool calls with an agent token, refusals as 200 "Refused:", counted per conversation, traced', async () => {
    const a = (await api('POST', '/projects/default/agents', admin, { name: 'Writer', files: 'on' })).body;
    const conv = (await api('POST', '/projects/default/conversations', admin, { members: [a.id] })).body;
    expect(conv.kind).toBe('dialog');
    const tok = (await api('POST', '/projects/default/tokens', admin, { agent: a.id })).body.token;
    const call = (name: string, args: unknown) =>
      api('POST', `/projects/default/tools/${name}/call`, tok, { arguments: args }, { 'x-stoa-conversation': conv.id });
    const w = await call('ws_write_file', { path: 'a.md', content: 'hello' });
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ refused: false, path: `agents/${a.id}/a.md`, version: 1 });
    expect((await call('ws_read_file', { path: 'a.md' })).body.text).toBe('hello');
    expect((await call('ws_write_file', { path: 'b.md', content: 'x' })).body.refused).toBe(false);
    const over = await call('ws_write_file', { path: 'c.md', content: 'x' });
    expect(over.status).toBe(200);
    expect(over.body.text).toMatch(/^Refused: you have made 2 changes/);
    const trace = await api('GET', `/projects/default/conversations/${conv.id}/trace`, admin);
    expect(trace.body.entries.map((e: any) => `${e.tool}:${e.refused}`)).toEqual([
      'ws_write_file:false',
      'ws_read_file:false',
      'ws_write_file:false',
      'ws_write_file:true',
    ]);
    expect(trace.body.entries[0]).toMatchObject({ agentId: a.id, agentName: 'Writer', path: `agents/${a.id}/a.md`, version: 1 });
    // Agent actions are not in the audit log.
    expect((await api('GET', '/projects/default/audit', admin)).body.entries.filter((e: any) => e.path?.startsWith('agents/'))).toEqual([]);
  });

  it('publishes tool schemas in three formats, personalised for an agent token', async () => {
    const mcp = (await api('GET', '/projects/default/tools?format=mcp', admin)).body;
    expect(mcp.map((t: any) => t.name).slice(0, 10)).toEqual([
      'ws_list_files',
      'ws_read_file',
      'ws_write_file',
      'ws_delete_file',
      'list_files',
      'read_file',
      'create_file',
      'str_replace',
      'full_file_rewrite',
      'delete_file',
    ]);
    // The memory and wiki tools of their areas come after the file tools.
    expect(mcp.map((t: any) => t.name)).toEqual(expect.arrayContaining(['memory_get', 'memory_append', 'wiki_get', 'wiki_put']));
    expect(mcp[2].annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(mcp[2].description).toContain('at most 2 changes (writes, edits, deletes) per conversation');
    const oa = (await api('GET', '/projects/default/tools?format=openai', admin)).body;
    expect(oa[0]).toMatchObject({ type: 'function', function: { name: 'ws_list_files', parameters: { type: 'object' } } });
    const an = (await api('GET', '/projects/default/tools?format=anthropic', admin)).body;
    expect(an[1]).toMatchObject({ name: 'ws_read_file', input_schema: { type: 'object', required: ['path'] } });
    const a = (await api('POST', '/projects/default/agents', admin, { name: 'Reader', files: 'on', read: 'own' })).body;
    const tok = (await api('POST', '/projects/default/tokens', admin, { agent: a.id })).body.token;
    const mine = (await api('GET', '/projects/default/tools', tok)).body;
    expect(mine[0].description).toContain(`For you (agent ${a.id}): you read only your folder agents/${a.id}/`);
  });

  it('a member token makes runtime writes tagged "agent" with process, node and conversation IDs (F6)', async () => {
    await t.userCtx('engine', 'editor');
    // A token for another person: only the installation administrator (local mode) may mint it.
    const tok = (await createToken(await t.admin(), { user: 'engine' })).token;
    const r = await api('POST', '/projects/default/tools/create_file/call', tok, {
      arguments: { file_path: 'runs/out.md', file_contents: 'x' },
      process: 'prc_9',
      node: 'node_2',
      conversation: 'conv_outside',
    });
    expect(r.body.text).toMatch(/^Created runs\/out\.md/);
    const stat = await api('GET', '/projects/default/files/stat?path=runs%2Fout.md', admin);
    expect(stat.body.createdBy).toBe('agent');
    expect(stat.body.creator.meta).toMatchObject({ processId: 'prc_9', nodeId: 'node_2', conversationId: 'conv_outside' });
  });

  it('a token created for the publication acts with the frozen settings, other tokens with the live ones (A7)', async () => {
    const a = (await api('POST', '/projects/default/agents', admin, { name: 'Pub', files: 'on', write: 'project' })).body;
    expect((await api('POST', '/projects/default/tokens', admin, { agent: a.id, published: true })).status).toBe(400);
    await api('POST', `/projects/default/agents/${a.id}/publish`, admin, {});
    await api('PATCH', `/projects/default/agents/${a.id}`, admin, { write: 'own' });
    const live = (await api('POST', '/projects/default/tokens', admin, { agent: a.id })).body.token;
    const frozen = (await api('POST', '/projects/default/tokens', admin, { agent: a.id, published: true })).body;
    expect(frozen.published).toBe(true);
    const args = { arguments: { path: 'shared/pub.md', content: 'x' } };
    expect((await api('POST', '/projects/default/tools/ws_write_file/call', live, args)).body.path).toBe(`agents/${a.id}/shared/pub.md`);
    expect((await api('POST', '/projects/default/tools/ws_write_file/call', frozen.token, args)).body.path).toBe('shared/pub.md');
  });
});
