import type { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError, type PartSpan } from '@stoa/blob';
import type { Ctx } from '../platform.js';
import { pendingReservation, ticketOf, type UploadTicket } from './upload-reservation.js';

type Reservation = Awaited<ReturnType<typeof pendingReservation>>;

/** Where a direct upload stands, so a client that was interrupted sends only what is missing. */
interface UploadStatus extends UploadTicket {
  received: { partNumber: number; size: number }[];
  receivedBytes: number;
}

/** One part's place in the whole, and where to send it. */
interface UploadPartTarget {
  partNumber: number;
  offset: number;
  size: number;
  /** A presigned object-storage URL, or null: PUT it to the server's part URL. */
  url: string | null;
  headers: Record<string, string>;
}

/** The reservation of an upload sent in parts, and the span of part `n` in it. */
async function partOf(ctx: Ctx, uploadId: string, n: number): Promise<{ r: Reservation; span: PartSpan; token: string }> {
  const r = await pendingReservation(ctx, uploadId);
  const { partSize, partCount } = ticketOf(r);
  if (partSize === null || partCount === null || r.parts_token === null) throw new StoaError('bad_request', 'this upload is sent whole, not in parts');
  if (!Number.isInteger(n) || n < 1 || n > partCount) throw new StoaError('bad_request', `part numbers of this upload run from 1 to ${partCount}`);
  const offset = (n - 1) * partSize;
  return { r, span: { number: n, offset, size: Math.min(partSize, Number(r.size) - offset) }, token: r.parts_token };
}

/**
 * Records a part that arrived whole (sending it again replaces it) and keeps the reservation alive: an upload
 * that is making progress does not expire under the sender.
 */
async function recordPart(ctx: Ctx, r: Reservation, span: PartSpan, etag: string): Promise<void> {
  const expiresAt = new Date(ctx.platform.clock().getTime() + ctx.platform.config.limits.uploadReservationSeconds * 1000).toISOString();
  const db = ctx.platform.db.kysely;
  await db
    .insertInto('upload_parts')
    .values({ upload_id: r.id, part_number: span.number, size: span.size, etag })
    .onConflict((oc) => oc.columns(['upload_id', 'part_number']).doUpdateSet({ etag, size: span.size }))
    .execute();
  await db.updateTable('upload_reservations').set({ expires_at: expiresAt }).where('id', '=', r.id).where('status', '=', 'pending').execute();
}

/**
 * The ticket of a pending upload and the parts that arrived.
 *
 * @example
 * const s = await uploadStatus(ctx, 'upl_…'); // after a restart: send the parts not in s.received
 */
export async function uploadStatus(ctx: Ctx, uploadId: string): Promise<UploadStatus> {
  const r = await pendingReservation(ctx, uploadId);
  const rows = await ctx.platform.db.kysely
    .selectFrom('upload_parts')
    .select(['part_number', 'size'])
    .where('upload_id', '=', r.id)
    .orderBy('part_number')
    .execute();
  const received = rows.map((p) => ({ partNumber: p.part_number, size: Number(p.size) }));
  return { ...ticketOf(r), received, receivedBytes: received.reduce((sum, p) => sum + p.size, 0) };
}

/**
 * Where to send each of `partNumbers`: presigned URLs valid for the reservation's time on object storage,
 * the server's part URL on the local disk. Asked again for fresh URLs when resuming.
 */
export async function uploadPartTargets(ctx: Ctx, uploadId: string, partNumbers: number[]): Promise<UploadPartTarget[]> {
  const targets: UploadPartTarget[] = [];
  for (const n of new Set(partNumbers)) {
    const { span, token, r } = await partOf(ctx, uploadId, n);
    const signed = await ctx.platform.blobs.presignStagingPart(r.staging_key, token, span, ctx.platform.config.limits.uploadReservationSeconds);
    targets.push({ partNumber: n, offset: span.offset, size: span.size, url: signed?.url ?? null, headers: signed?.headers ?? {} });
  }
  return targets;
}

/**
 * Receives one part through the server (local disk, or a client that cannot reach object storage): exactly the
 * part's size, no more, no less.
 */
export async function receiveUploadPart(ctx: Ctx, uploadId: string, n: number, source: Readable): Promise<{ partNumber: number; size: number }> {
  const { r, span, token } = await partOf(ctx, uploadId, n);
  let etag: string;
  try {
    etag = (await ctx.platform.blobs.writeStagingPart(r.staging_key, token, span, source)).etag;
  } catch (e) {
    if (e instanceof BlobTooLargeError || e instanceof BlobSizeMismatchError)
      throw new StoaError('bad_request', `part ${n} must be exactly ${span.size} bytes`);
    if (e instanceof BlobNotFoundError) throw new StoaError('not_found', 'upload does not exist');
    throw e;
  }
  await recordPart(ctx, r, span, etag);
  return { partNumber: n, size: span.size };
}

/** Records a part the client sent to its presigned URL; object storage checks the ETag when the parts are joined. */
export async function reportUploadPart(ctx: Ctx, uploadId: string, n: number, etag: string): Promise<{ partNumber: number; size: number }> {
  const { r, span } = await partOf(ctx, uploadId, n);
  if (ctx.platform.blobs.kind !== 's3') throw new StoaError('bad_request', 'parts of this upload are sent to the server: PUT them to …/parts/{partNumber}');
  await recordPart(ctx, r, span, etag);
  return { partNumber: n, size: span.size };
}
