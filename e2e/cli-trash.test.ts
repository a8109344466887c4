import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

/**
 * Issue 29 through the real `stoa` command against a real server: a WebDAV DELETE and `stoa files rm -r` move what
 * they delete to the trash (the space is freed), `stoa trash restore` puts a file back beside the one that took its
 * place, a viewer may list but not restore, and only an admin purges.
 */
describe.each(testDbKinds())('stoa trash (remote mode, the real binary, %s)', { timeout: 300_000 }, (kind) => {
  let server: StoaServer;
  let dropDb: (() => Promise<void>) | undefined;
  let ed = '';
  let vi = '';

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
  const dav = (token: string, method: string, path: string, body?: string) =>
    fetch(`${server.url}/dav/${encodeURI(path)}`, { method, headers: { authorization: `Bearer ${token}` }, body });

  // A story: each step uses what the one before left, so the steps keep their order under --sequence.shuffle.
  describe('in order', { shuffle: false }, () => {
    it('a WebDAV DELETE goes to the trash and frees the space; a restore comes back beside the file that took its place', async () => {
      await json(server.adminToken, 'members', 'add', 'ed', '--role', 'editor');
      await json(server.adminToken, 'members', 'add', 'vi', '--role', 'viewer');
      ed = (await json(server.adminToken, 'tokens', 'create', '--user', 'ed')).token;
      vi = (await json(server.adminToken, 'tokens', 'create', '--user', 'vi')).token;
      expect((await dav(ed, 'PUT', 'plan.md', 'first')).status).toBe(201);
      expect((await dav(ed, 'PUT', 'plan.md', 'second')).status).toBe(204);
      expect((await dav(ed, 'DELETE', 'plan.md')).status).toBe(204);
      expect((await json(ed, 'files', 'usage')).used).toBe(0);
      const listed = await json(vi, 'trash', 'list');
      expect(listed).toMatchObject({ mayRestore: false, mayPurge: false, items: [{ path: 'plan.md', size: 6, deletedBy: { kind: 'user', label: 'ed' } }] });
      const human = await as(ed, 'trash', 'list');
      expect(human.stdout).toMatch(/plan\.md\s+6 B\s+\S+\s+ed\s/);
      const id: string = listed.items[0].id;
      const refused = await as(vi, 'trash', 'restore', id);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('error forbidden')]);
      expect((await dav(ed, 'PUT', 'plan.md', 'new')).status).toBe(201);
      const restored = await as(ed, 'trash', 'restore', id);
      expect([restored.code, restored.stdout.trim()]).toEqual([0, 'Restored plan.md from the trash as plan (restored).md (plan.md is taken)']);
      expect(await (await dav(ed, 'GET', 'plan (restored).md')).text()).toBe('second');
      expect((await json(ed, 'files', 'versions', 'plan (restored).md')).map((v: { version: number }) => v.version)).toEqual([2, 1]);
      expect((await json(ed, 'files', 'usage')).used).toBe(9);
      expect((await json(ed, 'trash', 'list')).items).toEqual([]);
    });

    it('a folder deleted with files rm -r is one entry; only an admin deletes it forever, and it is gone from everyone', async () => {
      expect((await dav(ed, 'PUT', 'old/a.md', 'a')).status).toBe(201);
      expect((await dav(ed, 'PUT', 'old/b/c.md', 'c')).status).toBe(201);
      const rm = await as(ed, 'files', 'rm', '-r', 'old');
      expect([rm.code, rm.stdout.trim()]).toEqual([0, 'Deleted folder old (2 files, 2 B); it is in the trash']);
      const [entry] = (await json(ed, 'trash', 'list')).items;
      expect(entry).toMatchObject({ kind: 'folder', path: 'old', files: 2 });
      const refused = await as(ed, 'trash', 'purge', entry.id);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('error forbidden')]);
      const purged = await as(server.adminToken, 'trash', 'purge', entry.id);
      expect([purged.code, purged.stdout.trim()]).toEqual([0, 'Deleted old forever']);
      expect((await json(ed, 'trash', 'list')).items).toEqual([]);
      const again = await as(ed, 'trash', 'restore', entry.id);
      expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('error not_found')]);
    });
  });
});
