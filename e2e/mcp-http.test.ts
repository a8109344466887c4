import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { baseEnv, REPO, STOA_BIN, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';
import { StoaClient, StoaTools } from '@stoa/sdk';

let server: StoaServer;
let agent: string;
let conv: string;
let agentToken: string;
const clients: Client[] = [];
const text = (r: any) => (r.content as Array<{ type: string; text: string }>)[0]!.text;
const remote = (...args: string[]) => stoaJson(['--url', server.url, '--token', server.adminToken, ...args, '--json']);

async function httpClient(token: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const c = new Client({ name: 'stoa-e2e-http', version: '1.0.0' });
  await c.connect(transport);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startStoaServer({ env: { STOA_AGENT_LIST_MAX: '2' } });
  agent = (await remote('agents', 'create', 'Analyst', '--files', 'on', '--write', 'project')).id;
  conv = (await remote('conversations', 'create', '--members', agent)).id;
  agentToken = (await remote('tokens', 'create', '--agent', agent)).token;
}, 300_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await server?.stop();
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('MCP over Streamable HTTP at /mcp (official client, real server)', { timeout: 300_000, shuffle: false }, () => {
  it('refuses requests without an agent token', async () => {
    const none = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(none.status).toBe(401);
    await expect(httpClient(server.adminToken)).rejects.toThrow(/needs an agent token/);
  });

  it("serves the tools with the agent's scopes; whole-project writers may overwrite shared files but not delete", async () => {
    const c = await httpClient(agentToken, { 'x-stoa-conversation': conv });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ws_list_files', 'delete_file', 'memory_append', 'wiki_put']));
    expect(tools[0]!.description).toContain('At most 2 lines per call');
    expect(tools[0]!.description).toContain('deleting is not available');
    const w = await c.callTool({ name: 'create_file', arguments: { file_path: 'shared/plan.md', file_contents: 'step 1\nstep 2\n', permissions: '640' } });
    expect(text(w)).toMatch(/^Created shared\/plan\.md \(14 bytes, type text\/markdown, permissions 640\); version 1/);
    const e = await c.callTool({
      name: 'str_replace',
      arguments: { file_path: 'shared/plan.md', old_str: 'step 2', new_str: 'step two', expected_version: 1 },
    });
    expect(text(e)).toMatch(/^Replaced 1 occurrence at line 2 of shared\/plan\.md; version 2/);
    const r = await c.callTool({ name: 'read_file', arguments: { file_path: 'shared/plan.md', offset: 2, limit: 1 } });
    expect(text(r)).toBe('[shared/plan.md · version 2 · lines 2–2 of 2]\nstep two');
    const d = await c.callTool({ name: 'delete_file', arguments: { file_path: 'shared/plan.md' } });
    expect([d.isError, text(d)]).toEqual([true, 'Refused: deleting files is not available to an agent that reads and writes the whole project']);
    const stat = await remote('files', 'stat', 'shared/plan.md');
    expect(stat).toMatchObject({ createdBy: 'agent: Analyst', version: 2, permissions: '640' });
    const trace = await remote('conversations', 'trace', conv);
    expect(trace.map((x: any) => x.tool)).toEqual(['create_file', 'str_replace', 'read_file', 'delete_file']);
  });

  it('takes the conversation from ?conversation= as well, and parallel appends over HTTP all land', async () => {
    const c = await httpClient(agentToken);
    const transport2 = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?conversation=${conv}`), {
      requestInit: { headers: { authorization: `Bearer ${agentToken}` } },
    });
    const c2 = new Client({ name: 'second', version: '1.0.0' });
    await c2.connect(transport2);
    clients.push(c2);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? c : c2).callTool({ name: 'ws_write_file', arguments: { path: 'journal.md', content: `entry ${i}\n`, mode: 'append' } }),
      ),
    );
    const body = text(await c.callTool({ name: 'ws_read_file', arguments: { path: 'journal.md' } }));
    expect(body.split('\n').filter(Boolean).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `entry ${i}`));
    const trace = await remote('conversations', 'trace', conv);
    expect(trace.filter((x: any) => x.tool === 'ws_write_file')).toHaveLength(4);
  });

  it('stoa mcp --url --token proxies stdio to the HTTP API', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STOA_BIN, 'mcp', '--url', server.url, '--token', agentToken, '--conversation', conv],
      cwd: REPO,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const c = new Client({ name: 'stoa-e2e-proxy', version: '1.0.0' });
    await c.connect(transport);
    clients.push(c);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('ws_write_file');
    const w = await c.callTool({ name: 'ws_write_file', arguments: { path: 'from-proxy.md', content: 'via stdio proxy' } });
    expect(text(w)).toMatch(/^Created from-proxy\.md \(15 bytes\)/);
    const list = text(await c.callTool({ name: 'ws_list_files', arguments: {} }));
    expect(list.split('\n')).toHaveLength(3);
    expect(list.split('\n')[2]).toMatch(/^\[more files: only the first 2/);
    const refused = await c.callTool({ name: 'ws_read_file', arguments: { path: 'nope.md' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Refused: file "nope\.md" was not found/);
  });

  it('the SDK executes tool calls by name for plain function-calling frameworks', async () => {
    const tools = new StoaTools(new StoaClient({ url: server.url, token: agentToken }), { conversation: conv });
    const schemas = (await tools.schemas('openai')) as any[];
    expect(schemas[2]).toMatchObject({ type: 'function', function: { name: 'ws_write_file' } });
    const r = await tools.execute('ws_write_file', JSON.stringify({ path: 'sdk/hello.md', content: 'hi' }));
    expect(r).toMatchObject({ refused: false, path: 'sdk/hello.md', version: 1 });
    expect((await tools.execute('ws_read_file', { path: 'sdk/hello.md' })).text).toBe('hi');
    expect((await tools.execute('no_such_tool', {})).text).toBe('Refused: there is no tool "no_such_tool"');
  });
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('MCP authorization by the book (RFC 9728 metadata, bearer challenge) and structured results', { timeout: 300_000, shuffle: false }, () => {
  it('publishes protected-resource metadata and points to it from the 401 challenge', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const meta = await (await fetch(`${server.url}${path}`)).json();
      expect(meta).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url], bearer_methods_supported: ['header'] });
    }
    const none = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="stoa", resource_metadata="${server.url}/.well-known/oauth-protected-resource"`);
    const bad = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: '{}' });
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers with structuredContent beside the text, refuses a misspelt argument with its code, and serves the new tools', async () => {
    const c = await httpClient(agentToken, { 'x-stoa-conversation': (await remote('conversations', 'create', '--members', agent)).id });
    const { tools } = await c.listTools();
    const move = tools.find((t) => t.name === 'move_file')!;
    expect(move.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === 'wiki_put')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tools.every((t) => t.outputSchema?.type === 'object' && (t.inputSchema as any).additionalProperties === false)).toBe(true);
    const typo = await c.callTool({ name: 'create_file', arguments: { file_path: 'mv/a.md', file_contents: 'a', expectedVersion: 0 } });
    expect([typo.isError, text(typo), (typo.structuredContent as any).code]).toEqual([
      true,
      'Refused: unknown argument "expectedVersion" — did you mean "expected_version"?',
      'bad_request',
    ]);
    const made = await c.callTool({ name: 'create_file', arguments: { file_path: 'mv/a.md', file_contents: 'a' } });
    expect(made.structuredContent).toMatchObject({ path: 'mv/a.md', version: 1 });
    // This agent writes the whole project, where deleting (and so moving) is not available.
    const moved = await c.callTool({ name: 'move_file', arguments: { from_path: 'mv/a.md', to_path: 'mv/b.md' } });
    expect([moved.isError, (moved.structuredContent as any).code]).toEqual([true, 'forbidden']);
    expect(text(moved)).toMatch(/^Refused: moving files is not available to an agent that reads and writes the whole project/);
    const glob = await c.callTool({ name: 'glob', arguments: { pattern: 'mv/*.md' } });
    expect((glob.structuredContent as any).data.paths).toEqual(['mv/a.md']);
  });
});
