import type { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { BlobTooLargeError } from '@stoa/blob';
import { newId } from '../ids.js';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx, type Platform } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { refusePathClash } from './dirs.js';
import { assertVersion, lockFileRow } from './commit-version.js';
import { assertAgentWriteSize } from '../operations/agent-gate.js';
import { releaseSpace, reserveSpace } from './usage-counter.js';

/**
 * The reservation half of a direct upload (F8, B8): the space is reserved when the upload starts, the bytes are
 * staged, and the reservation ends as a file (direct-upload.ts commits it), or is released when the upload is
 * aborted, fails or expires.
 */

export interface UploadTicket {
  uploadId: string;
  path: string;
  size: number;
  /** Where to PUT the bytes: a presigned object-storage URL, or null to PUT them to the server's upload URL. */
  url: string | null;
  headers: Record<string, string>;
  expiresAt: string;
  /** Sent in parts of this size (the last one shorter), or null when sent whole. */
  partSize: number | null;
  partCount: number | null;
}

/** S3's own bounds for a multipart upload: parts of 5 MiB to 5 GiB (the last may be shorter), at most 10,000 of them. */
const MIN_OBJECT_STORAGE_PART = 5 * 1024 * 1024;
const MAX_OBJECT_STORAGE_PART = 5 * 1024 ** 3;
const MAX_PARTS = 10_000;

/**
 * The part size of an upload of `size` bytes: the configured one (or the smaller one the client asks for, after a
 * store refused a part as too large), raised where the store's minimum or the part count needs it, and never over
 * the store's maximum.
 */
function partSizeFor(platform: Platform, size: number, requested?: number): number {
  let part = Math.max(1, Math.min(platform.config.limits.uploadPartBytes, requested ?? Infinity));
  if (platform.blobs.kind === 's3') part = Math.min(Math.max(part, MIN_OBJECT_STORAGE_PART), MAX_OBJECT_STORAGE_PART);
  return Math.max(part, Math.ceil(size / MAX_PARTS));
}

/** The ticket of a reservation row, as start and status answer it. */
export function ticketOf(
  r: { id: string; path: string; size: number; expires_at: string; part_size: number | null },
  sent: { url: string | null; headers: Record<string, string> } = { url: null, headers: {} },
): UploadTicket {
  const partSize = r.part_size === null ? null : Number(r.part_size);
  const size = Number(r.size);
  return {
    uploadId: r.id,
    path: r.path,
    size,
    url: sent.url,
    headers: sent.headers,
    expiresAt: r.expires_at,
    partSize,
    partCount: partSize === null ? null : Math.max(1, Math.ceil(size / partSize)),
  };
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
export async function startUpload(
  ctx: Ctx,
  input: {
    path: string;
    size: number;
    sha256?: string | undefined;
    parts?: boolean | undefined;
    partBytes?: number | undefined;
    expectedVersion?: number | undefined;
  },
): Promise<UploadTicket> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  if (!Number.isInteger(input.size) || input.size < 0) throw new StoaError('bad_request', 'size must be a non-negative integer number of bytes');
  if (input.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(input.sha256)) throw new StoaError('bad_request', 'sha256 must be 64 lowercase hex characters');
  assertAgentWriteSize(ctx, input.size);
  const uploadId = newId('upl');
  const now = ctx.platform.clock();
  const expiresAt = new Date(now.getTime() + ctx.platform.config.limits.uploadReservationSeconds * 1000).toISOString();
  await inTx(ctx.platform, async (trx) => {
    // Replacing is allowed at any size and makes a new version (F8 as amended); only a folder is in the way.
    await refusePathClash(trx, ctx.project.id, path);
    // Refused now rather than after the bytes are sent; finishing checks it again in the commit's transaction.
    if (input.expectedVersion !== undefined) assertVersion(path, (await lockFileRow(trx, ctx, path))?.version ?? 0, input.expectedVersion);
    await reserveSpace(trx, ctx, input.size);
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
        expected_version: input.expectedVersion ?? null,
        status: 'pending',
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
  });
  const row = {
    id: uploadId,
    project_id: ctx.project.id,
    path,
    size: input.size,
    expires_at: expiresAt,
    staging_key: uploadId,
    parts_token: null,
    part_size: null,
  };
  try {
    if (input.parts) {
      const partSize = partSizeFor(ctx.platform, input.size, input.partBytes);
      const token = await ctx.platform.blobs.startStagingParts(uploadId, input.size);
      await ctx.platform.db.kysely.updateTable('upload_reservations').set({ part_size: partSize, parts_token: token }).where('id', '=', uploadId).execute();
      return ticketOf({ ...row, part_size: partSize });
    }
    const presigned = await ctx.platform.blobs.presignStagingPut(uploadId, input.size, ctx.platform.config.limits.uploadReservationSeconds);
    return ticketOf(row, { url: presigned?.url ?? null, headers: presigned?.headers ?? {} });
  } catch (e) {
    await releaseReservation(ctx.platform, row, 'failed');
    throw e;
  }
}

/** The caller's own reservation `uploadId` in this project, whatever its state; another's answers as a missing one. */
export async function ownReservation(ctx: Ctx, uploadId: string) {
  const r = await ctx.platform.db.kysely
    .selectFrom('upload_reservations')
    .selectAll()
    .where('id', '=', uploadId)
    .where('project_id', '=', ctx.project.id)
    .executeTakeFirst();
  if (!r || r.actor !== actorKey(ctx)) throw new StoaError('not_found', 'upload does not exist');
  return r;
}

/** The caller's own reservation that is still waiting for its bytes (or, with `alsoReceiving`, receiving them). */
export async function pendingReservation(ctx: Ctx, uploadId: string, alsoReceiving = false) {
  const r = await ownReservation(ctx, uploadId);
  if (r.status !== 'pending' && !(alsoReceiving && r.status === 'receiving')) throw new StoaError('not_found', `upload is ${r.status}`);
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
    const back = await db
      .updateTable('upload_reservations')
      .set({ status: 'pending', received_sha256: received })
      .where('id', '=', r.id)
      .where('status', '=', 'receiving')
      .executeTakeFirst();
    // Aborted while the bytes came in (a browser cancels, then aborts at once): the abort already gave the
    // space back and removed the staging; what this send wrote after that goes too.
    if (Number(back.numUpdatedRows) === 0) await ctx.platform.blobs.deleteStaging(r.staging_key);
  }
}

/** Ends a reservation that will not become a file: its space and staged bytes go (once, whoever calls). */
export async function releaseReservation(
  platform: Platform,
  r: { id: string; project_id: string; size: number; staging_key: string; parts_token: string | null },
  status: string,
): Promise<void> {
  const done = await inTx(platform, async (trx) => {
    // 'receiving': a send that never ended (the process died mid-upload) must not hold the space for ever.
    const u = await trx
      .updateTable('upload_reservations')
      .set({ status })
      .where('id', '=', r.id)
      .where('status', 'in', ['pending', 'receiving'])
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) return false;
    await releaseSpace(trx, r.project_id, Number(r.size));
    return true;
  });
  if (!done) return;
  if (r.parts_token !== null) await platform.blobs.abortStagingParts(r.staging_key, r.parts_token);
  await platform.blobs.deleteStaging(r.staging_key);
}

/** Abandons a direct upload: the reservation's space and staged bytes go. */
export async function abortUpload(ctx: Ctx, uploadId: string): Promise<void> {
  // Also while its bytes are still arriving: a client that cancels aborts before the server notices the send end.
  const r = await pendingReservation(ctx, uploadId, true);
  await releaseReservation(ctx.platform, r, 'aborted');
}

/** Releases reservations whose client never finished (B8: abandoned reservations expire). */
export async function expireUploads(platform: Platform): Promise<number> {
  const rows = await platform.db.kysely
    .selectFrom('upload_reservations')
    .selectAll()
    .where('status', 'in', ['pending', 'receiving'])
    .where('expires_at', '<', platform.clock().toISOString())
    .execute();
  for (const r of rows) await releaseReservation(platform, r, 'expired');
  return rows.length;
}
