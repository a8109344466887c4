import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { baseEnv, REPO, runStoa, STOA_BIN, stoaJson } from './helpers/run-stoa.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-mcp-stdio-'));
const data = join(tmp, 'data');
const env = { STOA_AGENT_WRITES_PER_CONVERSATION: '3', STOA_AGENT_READ_CHARS: '40' };
const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json'], { env });

/** Connects the official MCP client to a real `stoa mcp` process over stdio. */
async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [STOA_BIN, 'mcp', ...args],
    cwd: REPO,
    env: baseEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stoa-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
const text = (r: any) => (r.content as Array<{ type: string; text: string }>)[0]!.text;

let agent: string;
let conv: string;
const clients: Client[] = [];
beforeAll(async () => {
  agent = (await json('agents', 'create', 'Scout', '--files', 'on')).id;
  conv = (await json('conversations', 'create', '--members', agent)).id;
  const price = join(tmp, 'price.md');
  writeFileSync(price, '# Prices\nWidget: 10 EUR, shipping included, valid through the whole year.\n');
  await json('files', 'put', price, 'pricing/price-list.md');
}, 300_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa mcp over stdio (the official MCP client, the real binary)', { timeout: 300_000, shuffle: false }, () => {
  it('lists the file tools (then memory and wiki) with annotations and descriptions that quote the configured limits', async () => {
    const c = await connect(['--data', data, '--agent', agent, '--conversation', conv]);
    clients.push(c);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).slice(0, 10)).toEqual([
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
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['memory_get', 'memory_append', 'wiki_get', 'wiki_put', 'search']));
    const write = tools.find((t) => t.name === 'ws_write_file')!;
    expect(write.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(tools.find((t) => t.name === 'ws_read_file')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(write.description).toContain('at most 3 changes (writes, edits, deletes) per conversation');
    expect(write.description).toContain(`For you (agent ${agent}): you read the whole storage; you write only your folder agents/${agent}/`);
    expect(write.inputSchema).toMatchObject({ type: 'object', required: ['path', 'content'] });
    // The same schemas `stoa tools --format mcp` prints for this agent.
    const printed = JSON.parse((await runStoa(['--data', data, '--agent', agent, 'tools', '--format', 'mcp'], { env })).stdout);
    expect(printed.find((t: any) => t.name === 'ws_write_file').inputSchema).toEqual(write.inputSchema);
  });

  it('writes into the own folder, reads back by the same path, reads shared files by root path, refuses with "Refused:"', async () => {
    const c = clients[0]!;
    const w = await c.callTool({ name: 'ws_write_file', arguments: { path: 'reports/summary.md', content: '# Summary\n' } });
    expect(text(w)).toMatch(new RegExp(`^Created agents/${agent}/reports/summary\\.md \\(10 bytes\\); version 1`));
    expect(w.isError).toBe(false);
    expect(text(await c.callTool({ name: 'ws_read_file', arguments: { path: 'reports/summary.md' } }))).toBe('# Summary\n');
    const shared = text(await c.callTool({ name: 'ws_read_file', arguments: { path: 'pricing/price-list.md' } }));
    expect(shared).toMatch(
      /^# Prices\nWidget: 10 EUR, shipping includ\n\n\[truncated: 34 of 74 characters cut; use read_file with offset and limit to read the rest\]$/,
    );
    const out = await c.callTool({ name: 'ws_write_file', arguments: { path: '../escape.md', content: 'x' } });
    expect(out.isError).toBe(true);
    expect(text(out)).toBe('Refused: segment ".." is not allowed');
    const list = text(await c.callTool({ name: 'ws_list_files', arguments: {} }));
    expect(list.split('\n').map((l) => l.split('\t')[0])).toEqual([`agents/${agent}/reports/summary.md`, 'pricing/price-list.md']);
    // Memory tools are served by the same door (their area's implementation).
    const mem = await c.callTool({ name: 'memory_append', arguments: { file: 'MEMORY.md', text: 'Prefers short answers.' } });
    expect([mem.isError, text(mem)]).toEqual([false, expect.stringMatching(/^Appended to MEMORY\.md of conversation conv_/)]);
    const files = await json('files', 'ls');
    expect(files.find((f: any) => f.path === `agents/${agent}/reports/summary.md`).createdBy).toBe('agent: Scout');
  });

  it('keeps the per-conversation write count in the database: a new stoa mcp process sees it', async () => {
    const c = clients[0]!;
    // The conversation's first write and its memory_append (every change an agent makes counts) used two of three.
    expect(text(await c.callTool({ name: 'ws_write_file', arguments: { path: 'log.md', content: 'a\n', mode: 'append' } }))).toMatch(/change 3 of 3/);
    await c.close();
    const again = await connect(['--data', data, '--agent', agent, '--conversation', conv]);
    clients.push(again);
    const r = await again.callTool({ name: 'str_replace', arguments: { file_path: 'log.md', old_str: 'a', new_str: 'A' } });
    expect(text(r)).toMatch(/^Refused: you have made 3 changes to files in this conversation, the limit is 3/);
    const trace = await json('conversations', 'trace', conv);
    expect(trace.map((e: any) => `${e.tool}${e.refused ? '!' : ''}`)).toEqual([
      'ws_write_file',
      'ws_read_file',
      'ws_read_file',
      'ws_write_file!',
      'ws_list_files',
      'memory_append',
      'ws_write_file',
      'str_replace!',
    ]);
    // Agent actions are not in the audit log (only the person's upload is).
    expect((await json('audit')).map((e: any) => e.path)).toEqual(['pricing/price-list.md']);
  });

  it('fails at start-up with a clear error when the agent is missing', async () => {
    const r = await runStoa(['mcp', '--data', data], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error usage: stoa mcp in local mode needs --agent/);
    const bad = await runStoa(['mcp', '--data', data, '--agent', 'agt_nope0000'], { env });
    expect([bad.code, bad.stderr.trim()]).toEqual([1, 'error not_found: agent "agt_nope0000" does not exist']);
  });

  it('refuses a misspelt argument with the nearest name, answers with structuredContent, and serves the new tools', async () => {
    const conv2 = (await json('conversations', 'create', '--members', agent)).id;
    const c = await connect(['--data', data, '--agent', agent, '--conversation', conv2]);
    clients.push(c);
    const typo = await c.callTool({ name: 'ws_write_file', arguments: { path: 'n.md', content: 'x', expectedVersion: 0 } });
    expect([typo.isError, text(typo), (typo.structuredContent as any).code]).toEqual([
      true,
      'Refused: unknown argument "expectedVersion" — did you mean "expected_version"?',
      'bad_request',
    ]);
    const w = await c.callTool({ name: 'ws_write_file', arguments: { path: 'n.md', content: 'xaaay' } });
    expect(w.structuredContent).toMatchObject({ path: `agents/${agent}/n.md`, version: 1 });
    const amb = await c.callTool({ name: 'str_replace', arguments: { file_path: 'n.md', old_str: 'aa', new_str: 'b', dry_run: true } });
    expect(text(amb)).toMatch(/^Refused: old_str occurs 2 times/);
    const tree = await c.callTool({ name: 'tree', arguments: { prefix: `agents/${agent}`, depth: 1 } });
    expect(text(tree)).toContain('n.md 5');
  });

  it('finishes the calls in flight when stdin closes', async () => {
    const conv3 = (await json('conversations', 'create', '--members', agent)).id;
    const child = spawn(process.execPath, [STOA_BIN, 'mcp', '--data', data, '--agent', agent, '--conversation', conv3], {
      cwd: REPO,
      env: baseEnv(env) as NodeJS.ProcessEnv,
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const rpc = (m: object) => JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n';
    child.stdin.write(
      rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    );
    child.stdin.write(rpc({ method: 'notifications/initialized' }));
    child.stdin.write(
      rpc({ id: 2, method: 'tools/call', params: { name: 'ws_write_file', arguments: { path: 'last-words.md', content: 'sent just before EOF' } } }),
    );
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.find((a) => a.id === 2)?.result.content[0].text).toMatch(/^Created agents\/.*\/last-words\.md/);
    expect((await json('files', 'stat', `agents/${agent}/last-words.md`)).version).toBe(1);
  });
});
