import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentRoutes, conversationRoutes } from '@stoa/contract';
import { operations, refusalByRole } from '@stoa/core';
import { openLocalApi } from './local-api.js';

describe("the CLI's local mode", () => {
  let dir: string;
  let api: Awaited<ReturnType<typeof openLocalApi>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stoa-local-'));
    api = await openLocalApi({ dataDir: dir, env: {} });
  });

  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches every operation of the table through the core dispatch', async () => {
    for (const op of operations) {
      // Empty input: each call runs or is refused by its own validation or rules, never for want of an operation.
      const outcome = await api.call(op.route, { project: 'default' } as never).then(
        () => 'ran',
        (e: Error) => e.message,
      );
      expect(outcome, op.id).not.toMatch(/no operation|no handler/);
    }
  });

  it('refuses an agent every operation in a conversation it does not take part in, before anything runs', async () => {
    const agent = (await api.call(agentRoutes.create, { project: 'default', name: 'Intruder', files: 'on' } as never)) as { id: string };
    const other = (await api.call(agentRoutes.create, { project: 'default', name: 'Owner' } as never)) as { id: string };
    const conv = (await api.call(conversationRoutes.create, { project: 'default', members: [other.id] } as never)) as { id: string };
    const intruder = await openLocalApi({ dataDir: dir, agent: agent.id, conversation: conv.id, env: {} });
    const actor = {
      kind: 'agent',
      agentId: agent.id,
      name: 'Intruder',
      ownerId: null,
      access: { enabled: true, write: 'own', read: 'project' },
      instructions: '',
      conversationId: conv.id,
    } as const;
    try {
      for (const op of operations.filter((o) => o.scope === 'project')) {
        const code = await intruder.call(op.route, { project: 'default' } as never).then(
          () => 'ran',
          (e: { code?: string }) => e.code,
        );
        expect(code, op.id).toBe(refusalByRole(actor, op) ? 'forbidden' : 'not_in_conversation');
      }
    } finally {
      await intruder.close();
    }
  });

  it('acts as an agent with --agent, and says so when the agent does not exist', async () => {
    await expect(openLocalApi({ dataDir: dir, agent: 'agt_missing', env: {} })).rejects.toMatchObject({ code: 'not_found' });
  });
});
