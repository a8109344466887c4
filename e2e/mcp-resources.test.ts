import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StoaClient, StoaTools } from '@stoa/sdk';
import { baseEnv, REPO, STOA_BIN, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

let server: StoaServer;
let analyst: string;
let conv: string;
let analystToken: string;
let readerToken: string;
let project: string;
const clients: Client[] = [];
const dir = mkdtempSync(join(tmpdir(), 'stoa-mcp-res-'));
const remote = (...args: string[]) => stoaJson(['--url', server.url, '--token', server.adminToken, ...args, '--json']);
/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** Read limit of this server: a PNG one byte past it is "type and size" only. */
const READ_BYTES = 4096;
const MANY = 120;

async function put(remotePath: string, bytes: Buffer | string): Promise<void> {
  const local = join(dir, remotePath.replace(/\//g, '_'));
  writeFileSync(local, bytes);
  await remote('files', 'put', local, remotePath);
}

async function httpClient(token: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const c = new Client({ name: 'stoa-e2e-resources', version: '1.0.0' });
  await c.connect(transport);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startStoaServer({ env: { STOA_AGENT_READ_BYTES: String(READ_BYTES) } });
  analyst = (await remote('agents', 'create', 'Analyst', '--files', 'on', '--write', 'project')).id;
  const reader = (await remote('agents', 'create', 'Reader', '--files', 'on', '--read', 'own', '--write', 'own')).id;
  conv = (await remote('conversations', 'create', '--members', analyst)).id;
  analystToken = (await remote('tokens', 'create', '--agent', analyst)).token;
  readerToken = (await remote('tokens', 'create', '--agent', reader)).token;
  await put('pics/dot.png', PNG);
  await put('pics/big.png', Buffer.concat([PNG, Buffer.alloc(READ_BYTES + 1 - PNG.length)]));
  await put('pics/fake.png', 'not an image at all\n');
  await put('secret/plan.md', 'the plan\n');
  // More files than one resources/list page holds (100).
  const many = join(dir, 'many');
  mkdirSync(many);
  for (let i = 0; i < MANY; i++) writeFileSync(join(many, `n${i}.md`), `note ${i}\n`);
  await remote('files', 'put', '-r', many, 'many');
}, 300_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('images reach multimodal agents (issue 29)', { timeout: 300_000 }, () => {
  it('read_file and ws_read_file answer an image within the read limit as MCP image content beside a short text', async () => {
    const c = await httpClient(analystToken, { 'x-stoa-conversation': conv });
    for (const [name, args] of [
      ['read_file', { file_path: 'pics/dot.png' }],
      ['ws_read_file', { path: 'pics/dot.png' }],
    ] as const) {
      const r = await c.callTool({ name, arguments: args });
      const content = r.content as Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
      expect(r.isError).toBe(false);
      expect(content[0]).toEqual({ type: 'text', text: `[pics/dot.png · version 1 · image image/png, ${PNG.length} bytes; the image follows]` });
      expect(content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') });
    }
    // Over the read limit, or not an image whatever its name says: type and size only, no bytes.
    const big = await c.callTool({ name: 'read_file', arguments: { file_path: 'pics/big.png' } });
    expect(big.content).toEqual([
      {
        type: 'text',
        text: `"pics/big.png" is a binary file: type image/png, ${READ_BYTES + 1} bytes. Only text files can be read; its content is not shown.`,
      },
    ]);
    const fake = await c.callTool({ name: 'read_file', arguments: { file_path: 'pics/fake.png' } });
    expect((fake.content as unknown[]).length).toBe(1);
    expect((fake.content as Array<{ text: string }>)[0]!.text).toMatch(/is a binary file: type image\/png/);
  });

  it('the tools.call route gives the image as content a client can use', async () => {
    const tools = new StoaTools(new StoaClient({ url: server.url, token: analystToken }), { conversation: conv });
    const r = await tools.execute('read_file', { file_path: 'pics/dot.png' });
    expect(r).toMatchObject({ refused: false, path: 'pics/dot.png', content: [{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }] });
  });

  it('an agent that may not read the image gets no bytes', async () => {
    const c = await httpClient(readerToken);
    const r = await c.callTool({ name: 'read_file', arguments: { file_path: 'pics/dot.png' } });
    expect(r.isError).toBe(true);
    expect((r.content as unknown[]).length).toBe(1);
  });
});

// A story: each step builds on what the steps before it made.
describe('MCP resources: files, wiki pages and memory files (issue 29)', { timeout: 300_000, shuffle: false }, () => {
  it("lists the caller's memory files, wiki pages and files under stable URIs, page by page", async () => {
    const c = await httpClient(analystToken, { 'x-stoa-conversation': conv });
    expect(c.getServerCapabilities()?.resources).toBeTruthy();
    await c.callTool({ name: 'wiki_put', arguments: { path: 'handbook/refunds', text: '# Refunds\nWithin 14 days.', title: 'Refunds' } });
    await c.callTool({ name: 'memory_append', arguments: { file: 'MEMORY.md', text: 'The ACME renewal moved to November' } });
    await c.callTool({ name: 'create_file', arguments: { file_path: 'отчёты/план 1.md', file_contents: 'план\n' } });
    const { resourceTemplates } = await c.listResourceTemplates();
    project = /^stoa:\/\/([^/]+)\/files\/\{\+path\}$/.exec(resourceTemplates[0]!.uriTemplate)![1]!;
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      `stoa://${project}/files/{+path}`,
      `stoa://${project}/wiki/{+path}`,
      `stoa://${project}/memory/{file}`,
    ]);
    const first = await c.listResources();
    expect([first.resources.length, first.nextCursor]).toEqual([100, '100']);
    const second = await c.listResources({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const resources = [...first.resources, ...second.resources];
    const uris = resources.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris.filter((u) => u.startsWith(`stoa://${project}/files/many/`))).toHaveLength(MANY);
    expect(uris).toEqual(
      expect.arrayContaining([
        `stoa://${project}/memory/MEMORY.md`,
        `stoa://${project}/wiki/handbook/refunds`,
        `stoa://${project}/files/pics/dot.png`,
        `stoa://${project}/files/secret/plan.md`,
        `stoa://${project}/files/${encodeURIComponent('отчёты')}/${encodeURIComponent('план 1.md')}`,
      ]),
    );
    expect(resources.find((r) => r.uri.endsWith('/pics/dot.png'))).toMatchObject({ name: 'pics/dot.png', mimeType: 'image/png', size: PNG.length });
    expect(resources.find((r) => r.uri.endsWith('/wiki/handbook/refunds'))).toMatchObject({ title: 'Refunds' });
    await expect(c.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/cursor/);
  });

  it('reads text, images, wiki pages and memory through the read tools, recorded in the trace', async () => {
    const c = await httpClient(analystToken, { 'x-stoa-conversation': conv });
    const planUri = `stoa://${project}/files/${encodeURIComponent('отчёты')}/${encodeURIComponent('план 1.md')}`;
    expect((await c.readResource({ uri: planUri })).contents).toEqual([{ uri: planUri, text: 'план\n' }]);
    const png = await c.readResource({ uri: `stoa://${project}/files/pics/dot.png` });
    expect(png.contents).toEqual([{ uri: `stoa://${project}/files/pics/dot.png`, mimeType: 'image/png', blob: PNG.toString('base64') }]);
    const page = await c.readResource({ uri: `stoa://${project}/wiki/handbook/refunds` });
    expect(page.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('Within 14 days.') });
    const memory = await c.readResource({ uri: `stoa://${project}/memory/MEMORY.md` });
    expect(memory.contents[0]).toMatchObject({ text: expect.stringContaining('The ACME renewal moved to November') });
    const trace = await remote('conversations', 'trace', conv);
    expect(trace.map((x: { tool: string }) => x.tool)).toEqual(expect.arrayContaining(['ws_read_file', 'wiki_get', 'memory_get']));
  });

  it('what the caller may not read is neither listed nor readable: it reads as not found', async () => {
    const c = await httpClient(readerToken);
    const { resources } = await c.listResources();
    expect(resources.filter((r) => r.uri.includes('/files/'))).toEqual([]);
    // Without a conversation there is no MEMORY.md to list.
    expect(resources.some((r) => r.uri.endsWith('/memory/MEMORY.md'))).toBe(false);
    for (const uri of [
      `stoa://${project}/files/secret/plan.md`,
      `stoa://${project}/files/no/such.md`,
      `stoa://${project}/memory/MEMORY.md`,
      `stoa://${project}/memory/../../etc/passwd`,
      `stoa://other-project/files/secret/plan.md`,
      'file:///etc/passwd',
    ]) {
      await expect(c.readResource({ uri }), uri).rejects.toMatchObject({ code: -32002 });
    }
  });

  it('stoa mcp --url --token serves the same resources over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STOA_BIN, 'mcp', '--url', server.url, '--token', analystToken, '--conversation', conv],
      cwd: REPO,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const c = new Client({ name: 'stoa-e2e-resources-stdio', version: '1.0.0' });
    await c.connect(transport);
    clients.push(c);
    const uri = `stoa://${project}/files/pics/dot.png`;
    const page = await c.listResources();
    const rest = await c.listResources({ cursor: page.nextCursor });
    expect([...page.resources, ...rest.resources].map((r) => r.uri)).toContain(uri);
    expect((await c.readResource({ uri })).contents).toEqual([{ uri, mimeType: 'image/png', blob: PNG.toString('base64') }]);
    const img = await c.callTool({ name: 'read_file', arguments: { file_path: 'pics/dot.png' } });
    expect((img.content as Array<{ type: string }>).map((x) => x.type)).toEqual(['text', 'image']);
  });
});

describe('stoa mcp --data (local, stdio) serves resources too', { timeout: 300_000 }, () => {
  it("names the agent's own copy when it shadows a shared file at the same path", async () => {
    const data = join(dir, 'local-data');
    const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);
    const scout = (await json('agents', 'create', 'Scout', '--files', 'on')).id as string;
    const talk = (await json('conversations', 'create', '--members', scout)).id as string;
    const shared = join(dir, 'shared.md');
    writeFileSync(shared, 'shared\n');
    await json('files', 'put', shared, 'notes/a.md');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STOA_BIN, 'mcp', '--data', data, '--agent', scout, '--conversation', talk],
      cwd: REPO,
      env: baseEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const c = new Client({ name: 'stoa-e2e-resources-local', version: '1.0.0' });
    await c.connect(transport);
    clients.push(c);
    await c.callTool({ name: 'ws_write_file', arguments: { path: 'notes/a.md', content: 'own\n' } });
    const p = /^stoa:\/\/([^/]+)\//.exec((await c.listResourceTemplates()).resourceTemplates[0]!.uriTemplate)![1]!;
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([`stoa://${p}/files/notes/a.md`, `stoa://${p}/files/agents/${scout}/notes/a.md`]));
    expect((await c.readResource({ uri: `stoa://${p}/files/notes/a.md` })).contents).toEqual([
      { uri: `stoa://${p}/files/agents/${scout}/notes/a.md`, text: 'own\n' },
    ]);
  });
});
