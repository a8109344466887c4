import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, systemRoutes } from '@stoa/contract';
import { readFileSync } from 'node:fs';
import { operations, toolOperations, webdavOperations } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';
import { fastifyPath } from './mount.js';

describe('the operation table', () => {
  let s: TestApp;

  beforeAll(async () => {
    s = await createTestApp('sqlite');
  });

  afterAll(() => s.close());

  it("has exactly one operation per route of the contract, and one for each of the server's own routes that act", () => {
    const routes = [...allRoutes, systemRoutes.login, systemRoutes.logout, systemRoutes.signedFile];
    expect(operations.map((o) => o.id).sort()).toEqual(routes.map((r) => r.id).sort());
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    for (const op of operations.filter((o) => o.route.method === 'GET')) expect(op.traits.mutates, op.id).toBe(false);
  });

  it('mounts every operation on HTTP at its route', () => {
    for (const op of operations) expect(s.app.hasRoute({ method: op.route.method, url: '/api/v1' + fastifyPath(op.route.path) }), op.id).toBe(true);
  });
  it('has every declared trait read by the runner: a trait nobody enforces fails here', () => {
    const runner = ['chain.ts', 'run-operation.ts', 'tool-ops.ts']
      .map((f) => readFileSync(new URL(`../../../../packages/core/src/operations/${f}`, import.meta.url), 'utf8'))
      .join('\n');
    const keys = new Set([...operations, ...toolOperations, ...webdavOperations].flatMap((o) => Object.keys(o.traits)));
    expect([...keys].sort()).toEqual(['agent', 'audit', 'charges', 'mutates', 'mutatesWith', 'policy', 'touches', 'window']);
    for (const key of keys) expect(runner, key).toMatch(new RegExp(`traits\\.${key}\\b`));
  });

  // Who each operation answers, at every door and for every kind of actor: table-doors.test.ts; what each trait
  // does, operation by operation: table-traits.test.ts.
});
