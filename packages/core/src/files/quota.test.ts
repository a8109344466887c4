import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough, Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';
import { statFile } from './read-file.js';
import { listFilesRecursive } from './list-files.js';
import { listVersions, restoreVersion } from './versions.js';
import { usage } from './usage.js';
import { finishUpload } from './direct-upload.js';
import { abortUpload, expireUploads, receiveUpload, startUpload } from './upload-reservation.js';
import { storeViolations } from './test-invariants.js';

const QUOTA = 10_000;
const DIRECT = 1_000;
const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe.each(testDbKinds())('quota, F8 and direct uploads on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  let now = new Date('2026-05-01T08:00:00Z');
  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: QUOTA, directUploadBytes: DIRECT, uploadReservationSeconds: 600 }, { clock: () => now });
    ctx = await t.userCtx('quinn', 'editor');
  });
  afterAll(() => t.cleanup());

  const clear = async () => {
    for (const f of (await listFilesRecursive(ctx, {})).files) await (await import('./delete-file.js')).deleteFile(ctx, { path: f.path });
  };

  it('a write over the quota is quota_exceeded and changes nothing', async () => {
    await clear();
    await putFile(ctx, { path: 'q/keep.bin', source: bytes(900) });
    await putFile(ctx, { path: 'q/fill.bin', source: bytes(8_000) });
    await expect(putFile(ctx, { path: 'q/over.bin', source: Readable.from([bytes(600), bytes(600)]) })).rejects.toMatchObject({ code: 'quota_exceeded' });
    await expect(statFile(ctx, 'q/over.bin')).rejects.toMatchObject({ code: 'not_found' });
    // Replacing counts only the difference: 900 → 2,000 fits (8,900 + 1,100 = 10,000), one more byte does not.
    await expect(putFile(ctx, { path: 'q/keep.bin', source: bytes(2_001, 2) })).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect((await statFile(ctx, 'q/keep.bin')).size).toBe(900);
    expect((await usage(ctx)).used).toBe(8_900);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('usage may reach the quota exactly, never exceed it', async () => {
    await clear();
    await putFile(ctx, { path: 'q/a.bin', source: bytes(QUOTA) });
    expect((await usage(ctx)).used).toBe(QUOTA);
    await expect(putFile(ctx, { path: 'q/b.bin', source: bytes(1) })).rejects.toMatchObject({ code: 'quota_exceeded' });
    await expect(putFile(ctx, { path: 'q/empty.txt', source: '' })).resolves.toMatchObject({ created: true });
  });

  it('two parallel uploads that together exceed the quota cannot both succeed', async () => {
    for (let round = 0; round < 5; round++) {
      await clear();
      const results = await Promise.allSettled([
        putFile(ctx, { path: `race/a${round}.bin`, source: bytes(6_000, 3) }),
        putFile(ctx, { path: `race/b${round}.bin`, source: bytes(6_000, 4) }),
        putFile(ctx, { path: `race/c${round}.bin`, source: bytes(6_000, 5) }),
      ]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      expect(ok.length).toBe(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'quota_exceeded' });
      const u = await usage(ctx);
      expect(u.used).toBe(6_000);
      expect(u.used).toBeLessThanOrEqual(u.quota);
      expect(await storeViolations(ctx)).toEqual([]);
    }
  });

  it('parallel overwrites of one file and parallel first writes of one path keep the counters right', async () => {
    await clear();
    const rs = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => putFile(ctx, { path: 'race/same.bin', source: bytes(500 + i * 50, i) })));
    expect(rs.filter((r) => r.status === 'rejected')).toEqual([]);
    const f = await statFile(ctx, 'race/same.bin');
    expect(f.version).toBe(6);
    expect((await usage(ctx)).used).toBe(f.size);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('F8 as amended: replacing is allowed at any size and keeps the earlier versions', async () => {
    await clear();
    await putFile(ctx, { path: 'f8/doc.bin', source: bytes(10) });
    await expect(putFile(ctx, { path: 'f8/doc.bin', source: bytes(DIRECT, 2) })).resolves.toMatchObject({ created: false });
    await expect(putFile(ctx, { path: 'f8/doc.bin', source: bytes(DIRECT + 1, 3) })).resolves.toMatchObject({ created: false, previousVersion: 2 });
    expect(await statFile(ctx, 'f8/doc.bin')).toMatchObject({ size: DIRECT + 1, version: 3 });
    expect((await listVersions(ctx, 'f8/doc.bin')).map((v) => v.size)).toEqual([DIRECT + 1, DIRECT, 10]);
    // A new file of that size is fine.
    await expect(putFile(ctx, { path: 'f8/new.bin', source: bytes(DIRECT + 1, 3) })).resolves.toMatchObject({ created: true });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('direct upload: start reserves the space, send and finish commit it, usage + reserved never exceeds the quota', async () => {
    await clear();
    const content = bytes(4_000, 9);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const ticket = await startUpload(ctx, { path: 'big/video.bin', size: content.length, sha256 });
    expect(ticket).toMatchObject({ path: 'big/video.bin', size: 4_000, url: null });
    expect(await usage(ctx)).toMatchObject({ used: 0, reserved: 4_000 });
    await expect(startUpload(ctx, { path: 'big/second.bin', size: 6_001 })).rejects.toMatchObject({ code: 'quota_exceeded' });
    // The reservation holds against ordinary writes too.
    await expect(putFile(ctx, { path: 'small.bin', source: bytes(6_001) })).rejects.toMatchObject({ code: 'quota_exceeded' });
    await receiveUpload(ctx, ticket.uploadId, Readable.from([content.subarray(0, 1_500), content.subarray(1_500)]));
    const f = await finishUpload(ctx, ticket.uploadId);
    expect(f).toMatchObject({ path: 'big/video.bin', size: 4_000, sha256, createdBy: '' });
    expect(await usage(ctx)).toMatchObject({ used: 4_000, reserved: 0 });
    // Finishing again (an answer lost to a crash or a dropped connection) answers the same file, no second version.
    expect(await finishUpload(ctx, ticket.uploadId)).toEqual(f);
    expect(await listVersions(ctx, 'big/video.bin')).toHaveLength(1);
    expect(await usage(ctx)).toMatchObject({ used: 4_000, reserved: 0 });
    // Two finishes of one upload at once: both answer the one version the first made.
    const twice = await startUpload(ctx, { path: 'big/twice.bin', size: 1_000 });
    await receiveUpload(ctx, twice.uploadId, Readable.from([bytes(1_000)]));
    const [x, y] = await Promise.all([finishUpload(ctx, twice.uploadId), finishUpload(ctx, twice.uploadId)]);
    expect(x).toEqual(y);
    expect(await listVersions(ctx, 'big/twice.bin')).toHaveLength(1);
    expect(await usage(ctx)).toMatchObject({ used: 5_000, reserved: 0 });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('direct upload: a wrong size or hash at finish is refused and releases the reservation', async () => {
    await clear();
    const a = await startUpload(ctx, { path: 'd/a.bin', size: 100 });
    await receiveUpload(ctx, a.uploadId, Readable.from([bytes(99)]));
    await expect(finishUpload(ctx, a.uploadId)).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('size') });
    const b = await startUpload(ctx, { path: 'd/b.bin', size: 100, sha256: 'a'.repeat(64) });
    await receiveUpload(ctx, b.uploadId, Readable.from([bytes(100)]));
    await expect(finishUpload(ctx, b.uploadId)).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('sha256') });
    const c = await startUpload(ctx, { path: 'd/c.bin', size: 100 });
    await expect(receiveUpload(ctx, c.uploadId, Readable.from([bytes(101)]))).rejects.toMatchObject({ code: 'too_large' });
    await abortUpload(ctx, c.uploadId);
    expect(await usage(ctx)).toMatchObject({ used: 0, reserved: 0 });
    await expect(statFile(ctx, 'd/a.bin')).rejects.toMatchObject({ code: 'not_found' });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('direct upload: abort and expiry release the reservation; an expired upload cannot be finished', async () => {
    await clear();
    const a = await startUpload(ctx, { path: 'd/abort.bin', size: 3_000 });
    await abortUpload(ctx, a.uploadId);
    expect((await usage(ctx)).reserved).toBe(0);
    const e = await startUpload(ctx, { path: 'd/expire.bin', size: 3_000 });
    await receiveUpload(ctx, e.uploadId, Readable.from([bytes(3_000)]));
    expect((await usage(ctx)).reserved).toBe(3_000);
    now = new Date(now.getTime() + 601_000);
    await expect(finishUpload(ctx, e.uploadId)).rejects.toMatchObject({ code: 'not_found', message: 'upload has expired' });
    expect(await expireUploads(t.platform)).toBe(1);
    expect(await usage(ctx)).toMatchObject({ used: 0, reserved: 0 });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('direct upload: an abort while the bytes are still arriving releases the reservation, and the send keeps nothing', async () => {
    await clear();
    const a = await startUpload(ctx, { path: 'd/cancelled.bin', size: 3_000 });
    const source = new PassThrough();
    const sending = receiveUpload(ctx, a.uploadId, source);
    source.write(bytes(1_000));
    // The send has claimed the upload (status 'receiving') before the client gives up on it.
    await expect
      .poll(() => t.platform.db.kysely.selectFrom('upload_reservations').select('status').where('id', '=', a.uploadId).executeTakeFirst())
      .toEqual({ status: 'receiving' });
    await abortUpload(ctx, a.uploadId);
    expect((await usage(ctx)).reserved).toBe(0);
    source.end(bytes(2_000));
    await sending.catch(() => undefined);
    await expect(finishUpload(ctx, a.uploadId)).rejects.toMatchObject({ code: 'not_found' });
    expect(await usage(ctx)).toMatchObject({ used: 0, reserved: 0 });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('direct upload onto an existing file makes a new version of it (F8 as amended); a folder is never replaced', async () => {
    await clear();
    await putFile(ctx, { path: 'd/exists.bin', source: 'x' });
    const u = await startUpload(ctx, { path: 'd/exists.bin', size: 10 });
    await receiveUpload(ctx, u.uploadId, Readable.from([bytes(10)]));
    await putFile(ctx, { path: 'd/exists.bin', source: 'someone was faster' });
    await expect(finishUpload(ctx, u.uploadId)).resolves.toMatchObject({ version: 3, size: 10 });
    expect((await listVersions(ctx, 'd/exists.bin')).map((v) => v.version)).toEqual([3, 2, 1]);
    await expect(startUpload(ctx, { path: 'd', size: 10 })).rejects.toMatchObject({ code: 'already_exists' });
    expect((await usage(ctx)).reserved).toBe(0);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it("direct upload: bad sizes and another person's upload id are refused", async () => {
    await expect(startUpload(ctx, { path: 'd/neg.bin', size: -1 })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(startUpload(ctx, { path: '../d.bin', size: 1 })).rejects.toMatchObject({ code: 'path_invalid' });
    const u = await startUpload(ctx, { path: 'd/mine.bin', size: 5 });
    const other = await t.userCtx('oscar', 'editor');
    await expect(finishUpload(other, u.uploadId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(abortUpload(other, u.uploadId)).rejects.toMatchObject({ code: 'not_found' });
    await abortUpload(ctx, u.uploadId);
    const viewer = await t.userCtx('val', 'viewer');
    await expect(startUpload(viewer, { path: 'd/v.bin', size: 5 })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('a restore that does not fit the quota is refused and changes nothing', async () => {
    await clear();
    await putFile(ctx, { path: 'r/doc.bin', source: bytes(900) });
    await putFile(ctx, { path: 'r/doc.bin', source: bytes(10) });
    await putFile(ctx, { path: 'r/fill.bin', source: bytes(QUOTA - 10 - 500) });
    await expect(restoreVersion(ctx, { path: 'r/doc.bin', version: 1 })).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect(await statFile(ctx, 'r/doc.bin')).toMatchObject({ size: 10, version: 2 });
    expect(await storeViolations(ctx)).toEqual([]);
  });
});
