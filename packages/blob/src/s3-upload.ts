import { AbortMultipartUploadCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingStream } from './hashing-stream.js';
import { errName, status } from './s3-errors.js';

/**
 * Multipart tuning. Memory held per upload is about `partSize × (queueSize + 2)`.
 *
 * @example
 * createS3BlobStore({ bucket, upload: { partSize: 16 << 20, queueSize: 4 } }); // faster, ~100 MB per upload
 */
export interface UploadTuning {
  /** Bytes per multipart part (S3 minimum 5 MiB). Inputs smaller than one part go up as a single PUT. */
  partSize: number;
  /** Parts in flight at once. */
  queueSize: number;
}

/**
 * Small on purpose: a workspace server runs many uploads at once, and each one holds its parts in memory.
 *
 * @example
 * const tuning = { ...DEFAULT_UPLOAD_TUNING, queueSize: 4 };
 */
export const DEFAULT_UPLOAD_TUNING: UploadTuning = { partSize: 5 * 1024 * 1024, queueSize: 2 };

/**
 * Streams `source` to `bucket/key` through a {@link HashingStream} (single PUT for small inputs, multipart via
 * lib-storage for large ones) and returns the hasher with size and sha256. Exceeding `maxBytes` errors the
 * stream, which makes lib-storage abort the multipart upload, so nothing is completed under `key`.
 *
 * @example
 * const hasher = await uploadHashed(client, bucket, 'tmp/123', req, { maxBytes: 1 << 30 });
 */
export async function uploadHashed(
  client: S3Client,
  bucket: string,
  key: string,
  source: Readable,
  opts: { maxBytes?: number | undefined; tuning?: UploadTuning | undefined } = {},
): Promise<HashingStream> {
  const hasher = new HashingStream({ maxBytes: opts.maxBytes });
  const tuning = opts.tuning ?? DEFAULT_UPLOAD_TUNING;
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: hasher },
    partSize: tuning.partSize,
    queueSize: tuning.queueSize,
    leavePartsOnError: false,
  });
  const [piped, uploaded] = await Promise.allSettled([pipeline(source, hasher), upload.done()]);
  if (piped.status === 'rejected') {
    // When the upload fails first, the pipeline only reports a premature close; the upload's error is the cause.
    const premature = (piped.reason as { code?: unknown })?.code === 'ERR_STREAM_PREMATURE_CLOSE';
    if (premature && uploaded.status === 'rejected') throw uploaded.reason;
    throw piped.reason;
  }
  if (uploaded.status === 'rejected') throw uploaded.reason;
  return hasher;
}

/**
 * Aborts multipart uploads under `prefix` started before `cutoff`; returns how many. Stores without
 * ListMultipartUploads (s3rver) are skipped: the bucket lifecycle rule covers them.
 *
 * @example
 * await abortStaleMultipart(client, 'stoa', 'prod/tmp/', Date.now() - 86_400_000);
 */
export async function abortStaleMultipart(client: S3Client, bucket: string, prefix: string, cutoff: number): Promise<number> {
  let aborted = 0;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    let page;
    try {
      page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
    } catch (err) {
      if (errName(err) === 'NotImplemented' || status(err) === 501) return aborted;
      throw err;
    }
    for (const u of page.Uploads ?? []) {
      if (u.Key && u.UploadId && u.Initiated && u.Initiated.getTime() < cutoff) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
        aborted++;
      }
    }
    if (!page.IsTruncated) return aborted;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}
