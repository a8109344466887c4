import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { BlobHashMismatchError, BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from '@stoa/blob';
import { attributionOf } from '../actors.js';
import { newId } from '../ids.js';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx, type Platform } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { quotaOf } from '../projects/projects.js';
import { refusePathClash } from './dirs.js';
import { commitVersion } from './commit-version.js';
import { assertAgentWriteSize, countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { mimeForPath } from './mime.js';
import type { FileInfo } from './file-info.js';
import { assertUnlockedIn } from './locks.js';

export interface UploadTicket {
  uploadId: string;
  path: string;
  size: number;
  /** Where to PUT the bytes: a presigned object-storage URL, or null to PUT them to the server's upload URL. */
  url: string | null;
  headers: Record<string, string>;
  expiresAt: string;
}

function actorKey(ctx: Ctx): string {
  return ctx.actor.kind === 'user' ? `user:${ctx.actor.userId}` : `agent:${ctx.actor.agentId}`;
}

/**
 * Starts a direct upload (F8, B8): reserves the space now, so the quota holds for uploads in flight, and
 * hands out where to send the bytes. Like any upload over 25 MB, it fails if the file already exists.
 *
 * @example
 * const t = await startUpload(ctx, { path: 'video/raw.mp4', size: 1_000_000_000 });
 */
export async function startUpload(ctx: Ctx, input: { path: string; size: number; sha256?: string }): Promise<UploadTicket> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  if (!Number.isInteger(input.size) || input.size < 0) throw new StoaError('bad_request', 'size must be a non-negative integer number of bytes');
  if (input.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(input.sha256)) throw new StoaError('bad_request', 'sha256 must be 64 lowercase hex characters');
  assertAgentWriteSize(ctx, input.size);
  const uploadId = newId('upl');
  const now = ctx.platform.clock();
  const expiresAt = new Date(now.getTime() + ctx.platform.config.limits.uploadReservationSeconds * 1000).toISOString();
  const quota = quotaOf(ctx.platform, ctx.project);
  await inTx(ctx.platform, async (trx) => {
    // Replacing is allowed at any size and makes a new version (F8 as amended); only a folder is in the way.
    await refusePathClash(trx, ctx.project.id, path);
    const r = await trx
      .updateTable('projects')
      .set({ reserved_bytes: sql`reserved_bytes + ${input.size}` })
      .where('id', '=', ctx.project.id)
      .where(sql<boolean>`used_bytes + reserved_bytes + ${input.size} <= ${quota}`)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new StoaError('quota_exceeded', `not enough storage space for ${input.size} bytes`);
    await trx
      .insertInto('upload_reservations')
      .values({
        id: uploadId,
        project_id: ctx.project.id,
        path,
        size: input.size,
        sha256: input.sha256 ?? null,
        staging_key: uploadId,
        actor: actorKey(ctx),
        status: 'pending',
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
  });
  const presigned = await ctx.platform.blobs.presignStagingPut(uploadId, input.size, ctx.platform.config.limits.uploadReservationSeconds);
  return { uploadId, path, size: input.size, url: presigned?.url ?? null, headers: presigned?.headers ?? {}, expiresAt };
}

async function pendingReservation(ctx: Ctx, uploadId: string) {
  const r = await ctx.platform.db.kysely
    .selectFrom('upload_reservations')
    .selectAll()
    .where('id', '=', uploadId)
    .where('project_id', '=', ctx.project.id)
    .executeTakeFirst();
  if (!r || r.actor !== actorKey(ctx)) throw new StoaError('not_found', 'upload does not exist');
  if (r.status !== 'pending') throw new StoaError('not_found', `upload is ${r.status}`);
  if (r.expires_at < ctx.platform.clock().toISOString()) throw new StoaError('not_found', 'upload has expired');
  return r;
}

/**
 * Receives the bytes of a direct upload when the blob store has no presigned URLs (local disk). One send at a
 * time per upload (a second concurrent one is refused), so the hash computed on the way in is the hash of what
 * is staged, and finishing need not read the bytes again.
 */
export async function receiveUpload(ctx: Ctx, uploadId: string, source: Readable): Promise<{ size: number }> {
  const r = await pendingReservation(ctx, uploadId);
  const db = ctx.platform.db.kysely;
  const claimed = await db
    .updateTable('upload_reservations')
    .set({ status: 'receiving', received_sha256: null })
    .where('id', '=', r.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) throw new StoaError('already_exists', 'the bytes of this upload are being sent already');
  let received: string | null = null;
  try {
    const w = await ctx.platform.blobs.writeStaging(r.staging_key, source, Number(r.size));
    received = w.sha256;
    return { size: w.size };
  } catch (e) {
    if (e instanceof BlobTooLargeError) throw new StoaError('too_large', `the upload was announced as ${r.size} bytes and is larger`);
    throw e;
  } finally {
    await db
      .updateTable('upload_reservations')
      .set({ status: 'pending', received_sha256: received })
      .where('id', '=', r.id)
      .where('status', '=', 'receiving')
      .execute();
  }
}

async function release(platform: Platform, r: { id: string; project_id: string; size: number; staging_key: string }, status: string): Promise<void> {
  const done = await inTx(platform, async (trx) => {
    // 'receiving': a send that never ended (the process died mid-upload) must not hold the space for ever.
    const u = await trx
      .updateTable('upload_reservations')
      .set({ status })
      .where('id', '=', r.id)
      .where('status', 'in', ['pending', 'receiving'])
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) return false;
    await trx
      .updateTable('projects')
      .set({ reserved_bytes: sql`reserved_bytes - ${Number(r.size)}` })
      .where('id', '=', r.project_id)
      .execute();
    return true;
  });
  if (done) await platform.blobs.deleteStaging(r.staging_key);
}

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
  let blob;
  try {
    if (r.sha256 && r.received_sha256 && r.sha256 !== r.received_sha256) throw new BlobHashMismatchError(r.sha256, r.received_sha256);
    blob = await ctx.platform.blobs.promoteStaging(
      r.staging_key,
      r.received_sha256 ? { size: Number(r.size), sha256: r.received_sha256, trusted: true } : { size: Number(r.size), sha256: r.sha256 ?? undefined },
    );
  } catch (e) {
    if (e instanceof BlobNotFoundError) throw new StoaError('bad_request', 'no bytes were uploaded yet');
    await release(ctx.platform, r, 'failed');
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
        reservedBytes: Number(r.size),
        auditAction: 'file.upload',
      });
      return result.file;
    });
  } catch (e) {
    await release(ctx.platform, r, 'failed');
    throw e;
  }
}

export async function abortUpload(ctx: Ctx, uploadId: string): Promise<void> {
  const r = await pendingReservation(ctx, uploadId);
  await release(ctx.platform, r, 'aborted');
}

/** Releases reservations whose client never finished (B8: abandoned reservations expire). */
export async function expireUploads(platform: Platform): Promise<number> {
  const rows = await platform.db.kysely
    .selectFrom('upload_reservations')
    .selectAll()
    .where('status', 'in', ['pending', 'receiving'])
    .where('expires_at', '<', platform.clock().toISOString())
    .execute();
  for (const r of rows) await release(platform, r, 'expired');
  return rows.length;
}
