import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, systemRoutes } from '@stoa/contract';
import { addMember, contextFor, refusalByRole, createProject, createToken, localAdminPrincipal, operations, type UserActor } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';
import { fastifyPath } from './mount.js';

/** A request for an operation with every path parameter filled in and nothing else: who may act is checked first. */
function request(op: (typeof operations)[number], project: string): { method: any; url: string } {
  const path = op.route.path.replace('{project}', project).replace(/\{[a-zA-Z0-9_]+\}/g, 'x');
  return { method: op.route.method, url: '/api/v1' + path };
}

describe('the operation table', () => {
  let s: TestApp;
  let viewer: string;
  let outsider: string;

  beforeAll(async () => {
    s = await createTestApp('sqlite');
    viewer = await s.tokenFor('vera', 'viewer');
    // Olga edits another project and is no member of the default one.
    const platform = s.t.platform;
    const root = await localAdminPrincipal(platform);
    if (root.kind !== 'user') throw new Error('the local administrator is a user');
    await createProject(platform, { kind: 'user', userId: root.userId, name: root.name, role: null, superuser: true }, { name: 'other' });
    const other = await contextFor(platform, root, { project: 'other' });
    await addMember(other, { user: 'olga', role: 'editor' });
    outsider = (await createToken(other, { user: 'olga' })).token;
  });

  afterAll(() => s.close());

  it("has exactly one operation per route of the contract, and one for each of the server's own routes that act", () => {
    const routes = [...allRoutes, systemRoutes.login, systemRoutes.signedFile];
    expect(operations.map((o) => o.id).sort()).toEqual(routes.map((r) => r.id).sort());
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    for (const op of operations.filter((o) => o.route.method === 'GET')) expect(op.traits.mutates, op.id).toBe(false);
  });

  it('mounts every operation on HTTP at its route', () => {
    for (const op of operations) expect(s.app.hasRoute({ method: op.route.method, url: '/api/v1' + fastifyPath(op.route.path) }), op.id).toBe(true);
  });

  it('refuses an outsider every operation of the project, and a viewer every change its policy does not allow', async () => {
    const vera: UserActor = { kind: 'user', userId: 'vera', name: 'vera', role: 'viewer' };
    for (const op of operations.filter((o) => o.scope === 'project')) {
      const asOutsider = await s.app.inject({ ...request(op, 'default'), headers: s.auth(outsider) });
      expect([403, 404], `${op.id} as an outsider: ${asOutsider.body}`).toContain(asOutsider.statusCode);
      expect(['forbidden', 'not_found'], op.id).toContain(asOutsider.json().code);
      if (!op.traits.mutates || !refusalByRole(vera, op)) continue;
      const asViewer = await s.app.inject({ ...request(op, 'default'), headers: s.auth(viewer) });
      expect(asViewer.statusCode, `${op.id} as a viewer: ${asViewer.body}`).toBe(403);
    }
  });
});
