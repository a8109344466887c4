import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { memoryMcpTools } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { runMemoryTool } from './tools.js';
import { getMemory } from './memory.js';

describe.each(testDbKinds())('memory tools on %s', (kind) => {
  let t: TestPlatform;
  let agent: Ctx;
  let conv: string;
  beforeEach(async () => {
    t = await createTestPlatform(kind);
    const alice = await t.userCtx('alice', 'editor');
    const id = (await createAgent(alice, { name: 'Note taker', instructions: 'Take notes.' })).id;
    conv = (await createConversation(alice, { members: [id] })).id;
    agent = await t.agentCtx(id, conv);
  });
  afterEach(async () => t.cleanup());

  it('get, append, set with expected_version, search — refusals as text the model can act on', async () => {
    expect((await runMemoryTool(agent, 'memory_get', { file: 'SOUL.md' })).text).toBe(
      'SOUL.md of ' + (agent.actor as any).agentId + ', version 0:\nTake notes.',
    );
    const a = await runMemoryTool(agent, 'memory_append', { file: 'MEMORY.md', text: 'Client wants the report by Friday.' });
    expect(a).toMatchObject({ refused: false, version: 1 });
    expect(a.text).toContain(conv);
    const stale = await runMemoryTool(agent, 'memory_set', { file: 'MEMORY.md', content: 'x', expected_version: 0 });
    expect(stale.refused).toBe(true);
    expect(stale.text).toMatch(/^Refused: .*memory_version_conflict; the current version is 1/);
    expect((await runMemoryTool(agent, 'memory_append', { file: 'AGENTS.md', text: 'x' })).text).toMatch(/^Refused: AGENTS.md is edited by workspace admins/);
    expect((await runMemoryTool(agent, 'memory_get', { file: 'NOTES.md' })).text).toMatch(/^Refused: invalid arguments/);
    expect((await runMemoryTool(agent, 'memory_search', { query: 'report friday' })).text).toMatch(/^1\. MEMORY.md of .*Client wants the report by Friday/);
    expect((await getMemory(agent, { file: 'MEMORY.md' })).content).toBe('Client wants the report by Friday.\n');
  });

  it('publishes MCP tool entries with schemas and descriptions', () => {
    const tools = memoryMcpTools();
    expect(tools.map((x) => x.name)).toEqual(['memory_get', 'memory_append', 'memory_set', 'memory_edit', 'memory_search']);
    expect(tools.every((x) => x.description.length > 20 && (x.inputSchema as any).type === 'object')).toBe(true);
  });
});
