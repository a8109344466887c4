import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { createAgent } from '../agents/agents.js';
import { listAudit } from '../audit/audit.js';
import { putFile } from './put-file.js';
import { statFile } from './read-file.js';
import { listVersions, restoreVersion } from './versions.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { readText, storeViolations } from './test-invariants.js';

describe.each(testDbKinds())('file store on %s', (kind) => {
  let t: TestPlatform;
  let admin: Ctx;
  let editor: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { versionsPerFile: 3 });
    admin = await t.admin();
    editor = await t.userCtx('erin', 'editor');
  });
  afterAll(() => t.cleanup());

  it('put → stat → get round-trips bytes, type and size', async () => {
    const r = await putFile(editor, { path: 'docs/readme.md', source: '# Привет, 世界' });
    expect(r.created).toBe(true);
    const s = await statFile(editor, 'docs/readme.md');
    expect(s).toMatchObject({
      path: 'docs/readme.md',
      name: 'readme.md',
      type: 'text/markdown',
      size: Buffer.byteLength('# Привет, 世界'),
      version: 1,
      createdBy: '',
    });
    expect(await readText(editor, 'docs/readme.md')).toBe('# Привет, 世界');
    expect(await storeViolations(editor)).toEqual([]);
  });

  it('streams a Readable source and types by extension (unknown → octet-stream)', async () => {
    await putFile(editor, { path: 'bin/blob.zzq', source: Readable.from([Buffer.alloc(70_000, 1), Buffer.alloc(30_000, 2)]) });
    expect(await statFile(editor, 'bin/blob.zzq')).toMatchObject({ size: 100_000, type: 'application/octet-stream' });
    await putFile(editor, { path: 'bin/photo.PNG', source: 'x' });
    expect((await statFile(editor, 'bin/photo.PNG')).type).toBe('image/png');
  });

  it('types a name that does not tell by its bytes, streamed or not, small or large; a name that tells wins over the bytes', async () => {
    const text = (n: number) => Buffer.from('all:\n\tcc main.c\n'.repeat(Math.ceil(n / 16)).slice(0, n));
    const cases: Array<[string, Readable | Buffer | string, string, number]> = [
      ['src/Makefile', Readable.from([text(16)]), 'text/plain', 16],
      ['notes.org', '* TODO ship\n', 'text/plain', 12],
      ['big/LICENSE', Readable.from([text(200_000), text(200_000)]), 'text/plain', 400_000],
      ['raw/dump', Readable.from([Buffer.from([0, 1, 2, 0, 255, 0])]), 'application/octet-stream', 6],
      ['raw/big-dump', Readable.from([Buffer.alloc(300_000, 0)]), 'application/octet-stream', 300_000],
      ['raw/empty', Readable.from([]), 'application/octet-stream', 0],
      ['text-in.bin', Readable.from([text(100)]), 'application/octet-stream', 100],
    ];
    for (const [path, source, type, size] of cases) {
      await putFile(editor, { path, source });
      expect(await statFile(editor, path), path).toMatchObject({ type, size });
    }
    expect(await readText(editor, 'big/LICENSE')).toBe(text(200_000).toString() + text(200_000).toString());
    // Over the quota while the head is read: the same refusal as from the store, and nothing kept.
    const tight = await createTestPlatform(kind, { quotaBytes: 1000 });
    try {
      const ctx = await tight.admin();
      await expect(putFile(ctx, { path: 'Makefile', source: Readable.from([text(5000)]) })).rejects.toMatchObject({ code: 'quota_exceeded' });
      await expect(statFile(ctx, 'Makefile')).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await tight.cleanup();
    }
  });

  it('an overwrite keeps the previous version; versions are listed newest first', async () => {
    await putFile(editor, { path: 'v/notes.txt', source: 'one' });
    const r = await putFile(admin, { path: 'v/notes.txt', source: 'two!' });
    expect(r).toMatchObject({ created: false, previousVersion: 1 });
    const vs = await listVersions(editor, 'v/notes.txt');
    expect(vs.map((v) => [v.version, v.size, v.author, v.current])).toEqual([
      [2, 4, 'admin', true],
      [1, 3, 'erin', false],
    ]);
    expect(await readText(editor, 'v/notes.txt', 1)).toBe('one');
    expect(await readText(editor, 'v/notes.txt')).toBe('two!');
  });

  it('restore saves the old content as a new version', async () => {
    await putFile(editor, { path: 'restore/notes.txt', source: 'one' });
    await putFile(editor, { path: 'restore/notes.txt', source: 'two!' });
    const f = await restoreVersion(editor, { path: 'restore/notes.txt', version: 1 });
    expect(f.version).toBe(3);
    expect(await readText(editor, 'restore/notes.txt')).toBe('one');
    expect((await listVersions(editor, 'restore/notes.txt')).map((v) => v.version)).toEqual([3, 2, 1]);
    await expect(restoreVersion(editor, { path: 'restore/notes.txt', version: 99 })).rejects.toMatchObject({ code: 'not_found' });
    expect(await storeViolations(editor)).toEqual([]);
  });

  it('keeps at most STOA_VERSIONS_PER_FILE versions (3 here), dropping the oldest', async () => {
    for (let i = 1; i <= 6; i++) await putFile(editor, { path: 'v/retain.md', source: `v${i}` });
    const vs = await listVersions(editor, 'v/retain.md');
    expect(vs.map((v) => v.version)).toEqual([6, 5, 4]);
    await expect(readText(editor, 'v/retain.md', 1)).rejects.toMatchObject({ code: 'not_found' });
    expect(await readText(editor, 'v/retain.md', 4)).toBe('v4');
  });

  it('versions do not count against usage', async () => {
    for (let i = 1; i <= 4; i++) await putFile(editor, { path: 'usage/retain.md', source: `v${i}` });
    const before = await statFile(editor, 'usage/retain.md');
    const used = Number(
      (await t.platform.db.kysely.selectFrom('projects').select('used_bytes').where('id', '=', editor.project.id).executeTakeFirstOrThrow()).used_bytes,
    );
    await putFile(editor, { path: 'usage/retain.md', source: 'v7' });
    const after = Number(
      (await t.platform.db.kysely.selectFrom('projects').select('used_bytes').where('id', '=', editor.project.id).executeTakeFirstOrThrow()).used_bytes,
    );
    expect(after - used).toBe(2 - before.size);
  });

  it('optimistic concurrency: an overwrite based on an old version gets version_conflict and changes nothing', async () => {
    await putFile(editor, { path: 'cc.md', source: 'a' });
    await putFile(editor, { path: 'cc.md', source: 'b', expectedVersion: 1 });
    await expect(putFile(editor, { path: 'cc.md', source: 'c', expectedVersion: 1 })).rejects.toMatchObject({
      code: 'version_conflict',
      details: { currentVersion: 2 },
    });
    expect(await readText(editor, 'cc.md')).toBe('b');
    await expect(putFile(editor, { path: 'cc.md', source: 'd', mode: 'create' })).rejects.toMatchObject({ code: 'already_exists' });
    expect(await storeViolations(editor)).toEqual([]);
  });

  it('"created by" is empty for people and never changes on overwrite (also when an agent overwrites)', async () => {
    const ag = await createAgent(admin, { name: 'Scribe', files: 'on', write: 'project', read: 'project' });
    const agentCtx = await t.agentCtx(ag.id);
    await putFile(editor, { path: 'shared/plan.md', source: 'by a person' });
    await putFile(agentCtx, { path: 'shared/plan.md', source: 'by the agent' });
    const s = await statFile(editor, 'shared/plan.md');
    expect(s.createdBy).toBe('');
    expect(s.modifiedBy).toMatchObject({ kind: 'agent', label: 'Scribe' });
    await putFile(agentCtx, { path: 'shared/agent-made.md', source: 'x' });
    await putFile(editor, { path: 'shared/agent-made.md', source: 'y' });
    expect((await statFile(editor, 'shared/agent-made.md')).createdBy).toBe('agent: Scribe');
    expect((await listVersions(editor, 'shared/agent-made.md')).map((v) => v.author)).toEqual(['erin', 'agent: Scribe']);
  });

  it("audits people's uploads, moves and deletes (who, what, from → to), not agents', readable only by admins", async () => {
    const ag = await createAgent(admin, { name: 'Quiet', files: 'on', write: 'project', read: 'project' });
    const agentCtx = await t.agentCtx(ag.id);
    await putFile(editor, { path: 'audit/a.md', source: 'a' });
    await moveFile(editor, { from: 'audit/a.md', to: 'audit/b.md' });
    await deleteFile(editor, { path: 'audit/b.md' });
    await putFile(agentCtx, { path: 'audit/agent.md', source: 'not audited' });
    await moveFile(agentCtx, { from: 'audit/agent.md', to: 'audit/agent2.md' }).catch(() => undefined);
    const { entries } = await listAudit(admin, { limit: 1000 });
    const mine = entries.filter((e) => (e.path ?? '').startsWith('audit/'));
    expect(mine.map((e) => [e.actor.name, e.action, e.path, e.from, e.to])).toEqual([
      ['erin', 'file.delete', 'audit/b.md', null, null],
      ['erin', 'file.move', 'audit/b.md', 'audit/a.md', 'audit/b.md'],
      ['erin', 'file.upload', 'audit/a.md', null, null],
    ]);
    expect(mine.every((e) => typeof e.at === 'string' && e.actor.kind === 'user')).toBe(true);
    await expect(listAudit(editor)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listAudit(await t.userCtx('vic', 'viewer'))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listAudit(agentCtx)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('a viewer reads but cannot write, move or delete; nothing changes', async () => {
    await putFile(editor, { path: 'viewer/readme.md', source: '# Привет, 世界' });
    const viewer = await t.userCtx('vera', 'viewer');
    expect(await readText(viewer, 'viewer/readme.md')).toContain('Привет');
    await expect(putFile(viewer, { path: 'viewer/readme.md', source: 'hack' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(moveFile(viewer, { from: 'viewer/readme.md', to: 'x.md' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteFile(viewer, { path: 'viewer/readme.md' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await readText(viewer, 'viewer/readme.md')).toBe('# Привет, 世界');
    expect(await storeViolations(viewer)).toEqual([]);
  });

  it('stat of a missing file is not_found', async () => {
    await expect(statFile(editor, 'nope/missing.md')).rejects.toMatchObject({ code: 'not_found', message: 'file "nope/missing.md" does not exist' });
  });
});
