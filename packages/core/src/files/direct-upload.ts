import { StoaError } from '@stoa/contract';
import { BlobHashMismatchError, BlobNotFoundError, BlobSizeMismatchError, BlobStorageError } from '@stoa/blob';
import { attributionOf } from '../actors.js';
import { inTx, type Ctx } from '../platform.js';
import { commitVersion } from './commit-version.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { mimeForPath } from './mime.js';
import type { FileInfo } from './file-info.js';
import { assertUnlockedIn } from './locks.js';
import { pendingReservation, releaseReservation, ticketOf } from './upload-reservation.js';

/**
 * The commit half of a direct upload (F8, B8): the staged bytes become a blob and the file's new version, and the
 * reservation becomes usage in the same transaction. Reserving, receiving and releasing live in
 * upload-reservation.ts.
 */

/**
 * Finishes a direct upload: checks size (and hash), turns the staged bytes into a blob and commits the file;
 * the reservation becomes usage. Any failure releases the reservation and removes the staged bytes.
 */
export async function finishUpload(ctx: Ctx, uploadId: string): Promise<FileInfo> {
  return tracedChange(
    ctx,
    'file.write',
    { uploadId },
    (c) => commitUpload(c, uploadId),
    (f) => ({ path: f.path, version: f.version, text: `Created ${f.path} (${f.size} bytes); version ${f.version}` }),
  );
}

async function commitUpload(ctx: Ctx, uploadId: string): Promise<FileInfo> {
  const r = await pendingReservation(ctx, uploadId);
  if (r.parts_token !== null) await joinParts(ctx, r);
  let blob;
  try {
    if (r.sha256 && r.received_sha256 && r.sha256 !== r.received_sha256) throw new BlobHashMismatchError(r.sha256, r.received_sha256);
    blob = await ctx.platform.blobs.promoteStaging(
      r.staging_key,
      r.received_sha256 ? { size: Number(r.size), sha256: r.received_sha256, trusted: true } : { size: Number(r.size), sha256: r.sha256 ?? undefined },
    );
  } catch (e) {
    if (e instanceof BlobNotFoundError) throw new StoaError('bad_request', 'no bytes were uploaded yet');
    await releaseReservation(ctx.platform, r, 'failed');
    if (e instanceof BlobSizeMismatchError) throw new StoaError('bad_request', `uploaded size differs from the announced ${r.size} bytes`);
    if (e instanceof BlobHashMismatchError) throw new StoaError('bad_request', 'uploaded content does not match the announced sha256');
    throw e;
  }
  try {
    return await inTx(ctx.platform, async (trx) => {
      const u = await trx.updateTable('upload_reservations').set({ status: 'done' }).where('id', '=', r.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) throw new StoaError('not_found', 'upload is no longer pending');
      await assertUnlockedIn(trx, ctx, [{ path: r.path, member: true }]);
      await countAgentChange(trx, ctx);
      const result = await commitVersion(trx, ctx, {
        path: r.path,
        blob,
        mime: mimeForPath(r.path),
        attribution: attributionOf(ctx.actor),
        mode: 'replace',
        expectedVersion: r.expected_version,
        reservedBytes: Number(r.size),
        auditAction: 'file.upload',
      });
      return result.file;
    });
  } catch (e) {
    await releaseReservation(ctx.platform, r, 'failed');
    throw e;
  }
}

/** Joins the parts of an upload sent in parts into its staged bytes; every part must have arrived. */
async function joinParts(ctx: Ctx, r: Awaited<ReturnType<typeof pendingReservation>>): Promise<void> {
  const count = ticketOf(r).partCount ?? 0;
  const parts = await ctx.platform.db.kysely
    .selectFrom('upload_parts')
    .select(['part_number', 'etag'])
    .where('upload_id', '=', r.id)
    .orderBy('part_number')
    .execute();
  const missing = count - parts.length;
  if (missing > 0) throw new StoaError('bad_request', `${missing} of ${count} parts have not arrived yet`);
  try {
    await ctx.platform.blobs.completeStagingParts(
      r.staging_key,
      r.parts_token!,
      parts.map((p) => ({ number: p.part_number, etag: p.etag })),
    );
  } catch (e) {
    // A part reported with an ETag object storage does not know: the client sends that part again.
    if (e instanceof BlobStorageError && e.code === 'InvalidPart')
      throw new StoaError('bad_request', 'a part does not match what object storage holds: send it again');
    throw e;
  }
}
