import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { localAdminPrincipal } from '../context.js';
import type { Principal } from '../projects/tokens.js';
import { putFile } from './put-file.js';
import { deleteFile } from './delete-file.js';
import { createFolder } from './folders.js';
import { runDoctor } from './doctor.js';
import { sweepBlobs } from './sweeper.js';
import { storedBlobs, storeViolations } from './test-invariants.js';

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('doctor and the orphan sweep', { shuffle: false }, () => {
  describe.each(testDbKinds())('doctor and the orphan sweep on %s', (kind) => {
    let t: TestPlatform;
    let ctx: Ctx;
    let admin: Principal;
    let now = new Date('2026-05-01T10:00:00Z');
    beforeAll(async () => {
      t = await createTestPlatform(kind, {}, { clock: () => now });
      ctx = await t.admin();
      admin = await localAdminPrincipal(t.platform);
    });
    afterAll(() => t.cleanup());

    it('finds nothing on a consistent store', async () => {
      // A store of its own: the other tests break theirs on purpose.
      const own = await createTestPlatform(kind);
      try {
        const c = await own.admin();
        await putFile(c, { path: 'a/b/one.txt', source: 'one' });
        await putFile(c, { path: 'a/two.txt', source: 'two' });
        const r = await runDoctor(own.platform, await localAdminPrincipal(own.platform));
        expect(r).toMatchObject({ ok: true, findings: [] });
        expect(r.checked.files).toBe(2);
      } finally {
        await own.cleanup();
      }
    });

    it('bytes that were stored but never committed are adopted, kept through the grace period, then collected', async () => {
      // A crash between writing the blob and committing its row leaves exactly this: bytes and no row.
      const lost = await t.platform.blobs.put('bytes of a write that never committed');
      const found = await runDoctor(t.platform, admin);
      expect(found.ok).toBe(false);
      expect(found.findings).toEqual([expect.objectContaining({ kind: 'orphaned_blobs', repaired: false })]);
      const first = await sweepBlobs(t.platform, { graceMs: 3600_000 });
      expect(first).toMatchObject({ adopted: 1, deleted: 0 });
      expect(await t.platform.blobs.stat(lost.key)).not.toBeNull();
      now = new Date(now.getTime() + 2 * 3600_000);
      const repaired = await runDoctor(t.platform, admin, { repair: true });
      expect(repaired.findings[0]).toMatchObject({ kind: 'orphaned_blobs', repaired: true, detail: expect.stringContaining('1 collected') });
      expect(await t.platform.blobs.stat(lost.key)).toBeNull();
      expect((await runDoctor(t.platform, admin)).ok).toBe(true);
    });

    it('an orphan found for the first time is never collected at once (an upload may be about to commit it)', async () => {
      const fresh = await t.platform.blobs.put('just written, commit still to come');
      await runDoctor(t.platform, admin, { repair: true });
      expect(await t.platform.blobs.stat(fresh.key)).not.toBeNull();
      await putFile(ctx, { path: 'late/commit.txt', source: 'just written, commit still to come' });
      now = new Date(now.getTime() + 2 * 3600_000);
      await sweepBlobs(t.platform, { graceMs: 3600_000 });
      expect(await t.platform.blobs.stat(fresh.key)).not.toBeNull();
    });

    it('repairs usage, reservation and folder drift; reports rows whose bytes are gone without deleting them', async () => {
      const db = t.platform.db.kysely;
      await putFile(ctx, { path: 'drift/b/one.txt', source: 'one' });
      await db.updateTable('projects').set({ used_bytes: 12345, reserved_bytes: 99 }).where('id', '=', ctx.project.id).execute();
      await db.deleteFrom('dirs').where('project_id', '=', ctx.project.id).where('path', '=', 'drift/b').execute();
      const r = await runDoctor(t.platform, admin);
      expect(r.findings.map((f) => f.kind).sort()).toEqual(['folders', 'reserved', 'usage']);
      const fixed = await runDoctor(t.platform, admin, { repair: true });
      expect(fixed.ok).toBe(true);
      expect(await storeViolations(ctx)).toEqual([]);

      const victim = await putFile(ctx, { path: 'gone/bytes.txt', source: 'these bytes will vanish' });
      await t.platform.blobs.delete(victim.file.sha256);
      const broken = await runDoctor(t.platform, admin, { repair: true });
      expect(broken.ok).toBe(false);
      expect(broken.findings).toEqual([expect.objectContaining({ kind: 'missing_blob', repaired: false, detail: expect.stringContaining('gone/bytes.txt') })]);
      expect(await db.selectFrom('files').select('id').where('path', '=', 'gone/bytes.txt').executeTakeFirst()).toBeDefined();
      expect((await storedBlobs(t.platform)).length).toBeGreaterThan(0);
      // Deleting the file whose bytes are gone leaves a consistent store for the other tests.
      await deleteFile(ctx, { path: 'gone/bytes.txt' });
      expect((await runDoctor(t.platform, admin)).ok).toBe(true);
    });

    it('an empty folder a person made is not drift, and repair never removes it (issue 32)', async () => {
      await createFolder(ctx, { path: 'kept/empty/inner' });
      await putFile(ctx, { path: 'kept/full/one.txt', source: 'one' });
      await deleteFile(ctx, { path: 'kept/full/one.txt' });
      const r = await runDoctor(t.platform, admin);
      expect(r).toMatchObject({ ok: true, findings: [], repairs: [] });
      // Folder drift on top of the kept folder: repair recounts, and the kept folder stays.
      const db = t.platform.db.kysely;
      await db.updateTable('dirs').set({ file_count: 7 }).where('project_id', '=', ctx.project.id).where('path', '=', 'kept/empty').execute();
      const fixed = await runDoctor(t.platform, admin, { repair: true });
      expect(fixed.findings).toEqual([expect.objectContaining({ kind: 'folders', repaired: true })]);
      expect(fixed.repairs).toEqual([`[${ctx.project.name}] folder index: 1 file counts corrected`]);
      const left = await db
        .selectFrom('dirs')
        .select(['path', 'file_count'])
        .where('project_id', '=', ctx.project.id)
        .where('path', 'like', 'kept%')
        .orderBy('path')
        .execute();
      expect(left.map((d) => [d.path, Number(d.file_count)])).toEqual([
        ['kept', 0],
        ['kept/empty', 0],
        ['kept/empty/inner', 0],
      ]);
      expect(await runDoctor(t.platform, admin, { repair: true })).toMatchObject({ ok: true, findings: [], repairs: [] });
    });

    it('bytes a delete left inside the grace period are reported apart, not as drift; repair says it changed nothing', async () => {
      const bytes = (await t.platform.blobs.put('unreferenced bytes the sweep already knows')).key;
      await sweepBlobs(t.platform, { graceMs: 3600_000 }); // adopts them: their grace period starts now
      const r = await runDoctor(t.platform, admin, { repair: true });
      expect(r).toMatchObject({ ok: true, findings: [], repairs: [], inGrace: { blobs: 1, graceSeconds: expect.any(Number) } });
      expect(await t.platform.blobs.stat(bytes)).not.toBeNull();
      now = new Date(now.getTime() + 2 * 24 * 3600_000);
      const later = await runDoctor(t.platform, admin, { repair: true });
      expect(later).toMatchObject({ ok: true, inGrace: { blobs: 0 }, repairs: [expect.stringMatching(/^collected 1 unreferenced blobs/)] });
      expect(await t.platform.blobs.stat(bytes)).toBeNull();
    });

    it('is for installation administrators only', async () => {
      const editor = await t.userCtx('eve', 'editor');
      const principal = { kind: 'user' as const, userId: (editor.actor as { userId: string }).userId, name: 'eve', superuser: false };
      await expect(runDoctor(t.platform, principal)).rejects.toMatchObject({ code: 'forbidden' });
    });
  });
});
