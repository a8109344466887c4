import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@stoa/core';
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

  it('acts as an agent with --agent, and says so when the agent does not exist', async () => {
    await expect(openLocalApi({ dataDir: dir, agent: 'agt_missing', env: {} })).rejects.toMatchObject({ code: 'not_found' });
  });
});
