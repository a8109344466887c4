import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const LOCK_BODY = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

/**
 * Issue 26 through the real `stoa` command against a real server: an admin lists and releases a person's forgotten
 * lock (`stoa locks`), removes the person (their lock goes, their agent is suspended) and reassigns the agent.
 */
describe.each(testDbKinds())('stoa locks / members rm / agents reassign (remote mode, the real binary, %s)', { timeout: 300_000 }, (kind) => {
  let server: StoaServer;
  let edToken: string;
  let agentId: string;
  let dropDb: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    let env: Record<string, string> = {};
    if (kind === 'postgres') {
      const db = await createTestDb('postgres');
      env = { STOA_DATABASE_URL: db.url! };
      dropDb = db.cleanup;
    }
    server = await startStoaServer({ env });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dropDb?.();
  });

  const as = (token: string, ...args: string[]) => runStoa(['--url', server.url, '--token', token, ...args]);
  const json = (token: string, ...args: string[]) => stoaJson(['--url', server.url, '--token', token, ...args, '--json']);
  const dav = (token: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}/dav/${path}`, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body });

  // A story: the second step uses what the first made, so the steps keep their order under --sequence.shuffle.
  describe('in order', { shuffle: false }, () => {
    it('an admin sees who holds a lock and releases it; the holder cannot be bypassed by anyone else', async () => {
      await json(server.adminToken, 'members', 'add', 'ed', '--role', 'editor');
      await json(server.adminToken, 'members', 'add', 'vi', '--role', 'viewer');
      edToken = (await json(server.adminToken, 'tokens', 'create', '--user', 'ed')).token;
      const viToken = (await json(server.adminToken, 'tokens', 'create', '--user', 'vi')).token;
      expect((await dav(edToken, 'PUT', 'plan.md', {}, 'v1')).status).toBe(201);
      const lock = await dav(edToken, 'LOCK', 'plan.md', { timeout: 'Infinite' }, LOCK_BODY);
      expect(lock.status).toBe(200);
      expect(await lock.text()).toContain('Second-86400');

      const listed = await json(viToken, 'locks', 'list');
      expect(listed).toEqual([expect.objectContaining({ path: 'plan.md', holder: expect.objectContaining({ kind: 'user', name: 'ed' }), mine: false })]);
      const human = await as(server.adminToken, 'locks', 'list');
      expect(human.stdout).toMatch(/plan\.md\s+0\s+user: ed/);
      const refused = await as(viToken, 'locks', 'release', listed[0].token);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('error forbidden')]);
      expect((await dav(server.adminToken, 'PUT', 'plan.md', {}, 'v2')).status).toBe(423);
      const released = await as(server.adminToken, 'locks', 'release', listed[0].token);
      expect([released.code, released.stdout.trim()]).toEqual([0, 'Released the lock on plan.md']);
      expect((await dav(server.adminToken, 'PUT', 'plan.md', {}, 'v2')).status).toBe(204);
      expect(await json(viToken, 'locks', 'list')).toEqual([]);
    });

    it('removing a member releases their locks and suspends their agent until an admin reassigns it', async () => {
      agentId = (await json(edToken, 'agents', 'create', 'Helper', '--files', 'on')).id;
      const agentToken = (await json(edToken, 'tokens', 'create', '--agent', agentId)).token;
      expect((await dav(edToken, 'LOCK', 'plan.md', {}, LOCK_BODY)).status).toBe(200);
      expect(await json(server.adminToken, 'members', 'rm', 'ed')).toEqual({ ok: true });
      expect(await json(server.adminToken, 'locks', 'list')).toEqual([]);
      const suspended = await as(agentToken, 'files', 'ls');
      expect([suspended.code, suspended.stderr]).toEqual([1, expect.stringContaining('error agent_suspended')]);
      const shown = await as(server.adminToken, 'agents', 'show', agentId);
      expect(shown.stdout).toContain('suspended:');
      const moved = await json(server.adminToken, 'agents', 'reassign', agentId, '--owner', 'admin');
      expect(moved).toMatchObject({ id: agentId, suspended: false });
      const fresh = (await json(server.adminToken, 'tokens', 'create', '--agent', agentId)).token;
      expect((await as(fresh, 'files', 'ls')).code).toBe(0);
    });
  });
});
