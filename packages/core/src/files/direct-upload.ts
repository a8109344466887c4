import { StoaError } from '@stoa/contract';
import { BlobHashMismatchError, BlobNotFoundError, BlobSizeMismatchError, BlobStorageError } from '@stoa/blob';
import { attributionOf } from '../actors.js';
import { inTx, type Ctx } from '../platform.js';
import { commitVersion } from './commit-version.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { mimeForPath } from './mime.js';
import type { FileInfo } from './file-info.js';
import { assertUnlockedIn } from './locks.js';
import { crashPoint } from '../crash-point.js';
import { ownReservation, pendingReservation, releaseReservation, ticketOf } from './upload-reservation.js';

/**
 * The commit half of a direct upload (F8, B8): the staged bytes become a blob and the file's new version, and the
 * reservation becomes usage in the same transaction. Reserving, receiving and releasing live in
 * upload-reservation.ts.
 */

/**
 * Finishes a direct upload: checks size (and hash), turns the staged bytes into a blob and commits the file;
 * the reservation becomes usage. Any failure releases the reservation and removes the staged bytes.
 *
 * Idempotent and safe to repeat after a crash (issue 27): every step before the commit can be done again (the
 * parts stay joined, the staged bytes stay until the commit is in), and finishing an upload that is finished
 * already answers the file it made then — a client whose answer was lost, or that runs again after a restart,
 * gets one version, never a second one or an error.
 */
export async function finishUpload(ctx: Ctx, uploadId: string): Promise<FileInfo> {
  const earlier = await finishedFile(ctx, uploadId);
  if (earlier) return earlier;
  return tracedChange(
    ctx,
    'file.write',
    { uploadId },
    (c) => commitUpload(c, uploadId),
    (f) => ({ path: f.path, version: f.version, text: `Created ${f.path} (${f.size} bytes); version ${f.version}` }),
  );
}

/** What finishing `uploadId` answered, when it is finished already; null while it is not. */
async function finishedFile(ctx: Ctx, uploadId: string): Promise<FileInfo | null> {
  const r = await ownReservation(ctx, uploadId);
  if (r.status !== 'done' || r.finished_file === null) return null;
  // Bytes staged by a finish that was cut off right after its commit are removed by the one that repeats it.
  await ctx.platform.blobs.deleteStaging(r.staging_key);
  return JSON.parse(r.finished_file) as FileInfo;
}

/** Thrown inside the commit's transaction when another finish of the same upload committed first. */
class FinishedMeanwhile extends Error {}

/** Two finishes of one upload at once: the one that lost answers what the other committed. */
async function finishedMeanwhile(ctx: Ctx, uploadId: string): Promise<FileInfo> {
  const other = await finishedFile(ctx, uploadId);
  if (other) return other;
  throw new StoaError('not_found', 'upload is no longer pending');
}

async function commitUpload(ctx: Ctx, uploadId: string): Promise<FileInfo> {
  let r;
  try {
    r = await pendingReservation(ctx, uploadId);
  } catch (e) {
    // Another finish of the same upload committed between finishUpload's first look and this read (the
    // reservation is then done for good): answer what it made.
    const other = await finishedFile(ctx, uploadId);
    if (other) return other;
    throw e;
  }
  if (r.parts_token !== null && !(await joinParts(ctx, r))) return finishedMeanwhile(ctx, uploadId);
  crashPoint(ctx.platform.config, 'upload.finish.joined');
  let blob;
  try {
    if (r.sha256 && r.received_sha256 && r.sha256 !== r.received_sha256) throw new BlobHashMismatchError(r.sha256, r.received_sha256);
    const expected = r.received_sha256
      ? { size: Number(r.size), sha256: r.received_sha256, trusted: true }
      : { size: Number(r.size), sha256: r.sha256 ?? undefined };
    // The staged bytes stay until the commit is in: a crash before it finds them again on the next finish.
    blob = await ctx.platform.blobs.promoteStaging(r.staging_key, { ...expected, keepStaging: true });
  } catch (e) {
    if (e instanceof BlobNotFoundError) {
      // A finish of the same upload running at once committed and removed the staged bytes.
      const other = await finishedFile(ctx, uploadId);
      if (other) return other;
      throw new StoaError('bad_request', 'no bytes were uploaded yet');
    }
    await releaseReservation(ctx.platform, r, 'failed');
    if (e instanceof BlobSizeMismatchError) throw new StoaError('bad_request', `uploaded size differs from the announced ${r.size} bytes`);
    if (e instanceof BlobHashMismatchError) throw new StoaError('bad_request', 'uploaded content does not match the announced sha256');
    throw e;
  }
  crashPoint(ctx.platform.config, 'upload.finish.promoted');
  let file: FileInfo;
  try {
    file = await inTx(ctx.platform, async (trx) => {
      const u = await trx.updateTable('upload_reservations').set({ status: 'done' }).where('id', '=', r.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) throw new FinishedMeanwhile();
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
      await trx
        .updateTable('upload_reservations')
        .set({ finished_file: JSON.stringify(result.file) })
        .where('id', '=', r.id)
        .execute();
      return result.file;
    });
  } catch (e) {
    // Two finishes of one upload at once: the one that lost answers what the other committed.
    if (e instanceof FinishedMeanwhile) return finishedMeanwhile(ctx, uploadId);
    await releaseReservation(ctx.platform, r, 'failed');
    throw e;
  }
  crashPoint(ctx.platform.config, 'upload.finish.committed');
  await ctx.platform.blobs.deleteStaging(r.staging_key).catch(() => undefined);
  return file;
}

/**
 * Joins the parts of an upload sent in parts into its staged bytes; every part must have arrived. False when
 * there is nothing to join because a finish of the same upload running at once committed it.
 */
async function joinParts(ctx: Ctx, r: Awaited<ReturnType<typeof pendingReservation>>): Promise<boolean> {
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
    return true;
  } catch (e) {
    // Neither the parts nor the joined bytes are there (lost by a server before issue 27's fix): nothing can
    // finish this upload; its space is given back and the client starts again.
    if (e instanceof BlobNotFoundError) {
      if (await finishedFile(ctx, r.id)) return false;
      await releaseReservation(ctx.platform, r, 'failed');
      throw new StoaError('not_found', 'the bytes of this upload are gone: start it again');
    }
    // A part reported with an ETag object storage does not know: the client sends that part again.
    if (e instanceof BlobStorageError && e.code === 'InvalidPart')
      throw new StoaError('bad_request', 'a part does not match what object storage holds: send it again');
    throw e;
  }
}
