import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createAgent, createConversation, createToken, listTrace, putFile, statFile } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { testDbKinds } from '@stoa/db/testing';
import { buildApp } from '@stoa/server';
import { runStoa } from './helpers/run-stoa.js';

/**
 * An agent is an agent at every door (issue 9 §2): the same token over HTTP (with and without a conversation),
 * WebDAV, MCP and the CLI's remote mode meets the same write window, the same byte limits, the same trace and
 * the same "agent: <name>" attribution, because the core applies them.
 */
const LIMITS = { agentWritesPerConversation: 3, agentWriteBytes: 64, agentReadBytes: 100 };

const kinds = testDbKinds();

describe.each(kinds)('an agent token at every door on %s', (kind) => {
  // The CLI starts a process per call; one database kind proves the door, the others the core behind it.
  const withCli = kind === kinds[0];
  let t: TestPlatform;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let agentId: string;
  let own: string;

  beforeAll(async () => {
    t = await createTestPlatform(kind, LIMITS);
    app = await buildApp({ platform: t.platform, webRoot: null });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await t.admin();
    const agent = await createAgent(admin, { name: 'Scout', files: 'on', write: 'own', read: 'project' });
    agentId = agent.id;
    own = `agents/${agentId}`;
    token = (await createToken(admin, { agent: agentId })).token;
    await putFile(admin, { path: 'big.md', source: 'x'.repeat(LIMITS.agentReadBytes + 1) });
    await putFile(admin, { path: 'small.md', source: 'hello' });
  });

  afterAll(async () => {
    await app.close();
    await t.cleanup();
  });

  const conversation = async () => (await createConversation(await t.admin(), { members: [agentId] })).id;
  const bearer = () => ({ authorization: `Bearer ${token}` });
  const httpPut = (path: string, body: string, conv?: string) =>
    fetch(`${base}/api/v1/projects/default/files/content?path=${encodeURIComponent(path)}`, {
      method: 'PUT',
      body,
      headers: { ...bearer(), 'content-type': 'application/octet-stream', ...(conv ? { 'x-stoa-conversation': conv } : {}) },
    });
  const davPut = (path: string, body: string) =>
    fetch(`${base}/dav/${path}`, { method: 'PUT', body, headers: { authorization: 'Basic ' + Buffer.from(`agent:${token}`).toString('base64') } });
  const mcp = async (conv: string) => {
    const client = new Client({ name: 'doors-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?conversation=${conv}`), { requestInit: { headers: bearer() } }));
    return client;
  };
  const mcpText = (r: any) => String(r.content?.[0]?.text ?? '');

  it('HTTP with a conversation: the window, the trace and "agent: Scout"; MCP in that conversation shares the window', async () => {
    const conv = await conversation();
    for (let i = 1; i <= 2; i++) expect((await httpPut(`${own}/h${i}.md`, `note ${i}`, conv)).status).toBe(201);
    const client = await mcp(conv);
    try {
      expect(mcpText(await client.callTool({ name: 'ws_write_file', arguments: { path: 'm3.md', content: 'third', mode: 'overwrite' } }))).toMatch(
        /change 3 of 3/,
      );
      expect(mcpText(await client.callTool({ name: 'ws_write_file', arguments: { path: 'm4.md', content: 'fourth', mode: 'overwrite' } }))).toMatch(
        /^Refused: .*limit is 3/,
      );
    } finally {
      await client.close();
    }
    const refused = await httpPut(`${own}/h5.md`, 'fifth', conv);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('rate_limited');

    const admin = await t.admin();
    expect((await statFile(admin, `${own}/h1.md`)).createdBy).toBe('agent: Scout');
    const { entries } = await listTrace(admin, conv);
    expect(entries.map((e) => [e.tool, e.refused])).toEqual([
      ['files.upload', false],
      ['files.upload', false],
      ['ws_write_file', false],
      ['ws_write_file', true],
      ['files.upload', true],
    ]);
    expect(entries[0]!.path).toBe(`${own}/h1.md`);
  });

  it('folder changes count like file changes: created and moved folders fill the window, the next folder is refused and traced', async () => {
    const conv = await conversation();
    const post = (path: string, body: unknown) =>
      fetch(`${base}/api/v1/projects/default/${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { ...bearer(), 'content-type': 'application/json', 'x-stoa-conversation': conv },
      });
    expect((await post('folders', { path: `${own}/f1` })).status).toBe(201);
    expect((await post('folders/move', { from: `${own}/f1`, to: `${own}/f2` })).status).toBe(200);
    expect((await httpPut(`${own}/f2/a.md`, 'a', conv)).status).toBe(201);
    const over = await post('folders', { path: `${own}/f3` });
    expect(over.status).toBe(429);
    expect((await over.json()).code).toBe('rate_limited');
    const admin = await t.admin();
    expect((await listTrace(admin, conv)).entries.map((e) => [e.tool, e.refused])).toEqual([
      ['folders.create', false],
      ['folders.move', false],
      ['files.upload', false],
      ['folders.create', true],
    ]);
  });

  it('HTTP without a conversation, WebDAV and the CLI remote share one window per agent; the byte limits hold at each door', async () => {
    expect((await httpPut(`${own}/n1.md`, 'one')).status).toBe(201);
    expect((await davPut(`${own}/n2.md`, 'two')).status).toBe(201);
    const env = { STOA_URL: base, STOA_TOKEN: token };
    const folder = mkdtempSync(join(tmpdir(), 'stoa-doors-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const local = join(folder, 'note.md');
    writeFileSync(local, 'three');
    if (withCli) {
      const cli = await runStoa(['files', 'put', local, `${own}/n3.md`, '--json'], { env });
      expect(cli.code, cli.stderr).toBe(0);
    } else {
      expect((await httpPut(`${own}/n3.md`, 'three')).status).toBe(201);
    }
    for (const r of [await httpPut(`${own}/n4.md`, 'four'), await davPut(`${own}/n4.md`, 'four')]) expect(r.status).toBe(429);
    if (withCli) {
      const cliRefused = await runStoa(['files', 'put', local, `${own}/n4.md`], { env });
      expect(cliRefused.code).not.toBe(0);
      expect(cliRefused.stderr).toMatch(/limit is 3/);
    }
    expect((await statFile(await t.admin(), `${own}/n2.md`)).createdBy).toBe('agent: Scout');
    // Without a conversation the changes are traced with none; the WebDAV PUT runs the same operation as HTTP's.
    const rows = await t.platform.db.kysely
      .selectFrom('tool_calls')
      .select(['tool', 'path'])
      .where('conversation_id', 'is', null)
      .where('agent_id', '=', agentId)
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { tool: 'files.upload', path: `${own}/n1.md` },
        { tool: 'files.upload', path: `${own}/n2.md` },
      ]),
    );

    // Over the write limit: refused before anything counts, at every door (a fresh conversation has room).
    const conv = await conversation();
    const tooBig = 'y'.repeat(LIMITS.agentWriteBytes + 1);
    expect((await httpPut(`${own}/big.md`, tooBig, conv)).status).toBe(413);
    expect((await davPut(`${own}/big.md`, tooBig)).status).toBe(413);
    const client = await mcp(conv);
    try {
      expect(mcpText(await client.callTool({ name: 'ws_write_file', arguments: { path: 'big.md', content: tooBig, mode: 'overwrite' } }))).toMatch(
        /^Refused: .*at most 64 bytes/,
      );
      expect(mcpText(await client.callTool({ name: 'ws_read_file', arguments: { path: 'big.md' } }))).toMatch(/^Refused: .*over the 100-byte limit/);
      expect(mcpText(await client.callTool({ name: 'ws_read_file', arguments: { path: 'small.md' } }))).toBe('hello');
    } finally {
      await client.close();
    }
    // Over the read limit: the same refusal over HTTP (also for a byte range of it), WebDAV and the CLI.
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/v1/projects/default/files/content?path=${path}`, { headers: { ...bearer(), ...headers } });
    expect((await get('big.md')).status).toBe(413);
    expect((await get('big.md', { range: 'bytes=0-9' })).status).toBe(413);
    expect((await get('small.md')).status).toBe(200);
    expect((await fetch(`${base}/dav/big.md`, { headers: { authorization: 'Basic ' + Buffer.from(`agent:${token}`).toString('base64') } })).status).toBe(413);
    if (withCli) {
      const cliRead = await runStoa(['files', 'get', 'big.md', '-'], { env });
      expect(cliRead.code).not.toBe(0);
      expect(cliRead.stderr).toMatch(/over the 100-byte limit/);
    }
  });
});
