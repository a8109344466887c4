import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/**
 * CopyObject (and a single PUT) cannot exceed 5 GiB; larger objects are copied part by part.
 *
 * @example
 * if (size > MAX_SINGLE_COPY_BYTES) throw new BlobTooLargeError(MAX_SINGLE_COPY_BYTES);
 */
export const MAX_SINGLE_COPY_BYTES = 5 * 1024 ** 3;
const MIN_COPY_PART_BYTES = 512 * 1024 ** 2;
const MAX_PARTS = 10_000;
const COPY_CONCURRENCY = 4;

/**
 * Splits an object of `size` bytes into inclusive byte ranges for UploadPartCopy: parts of at least 512 MiB
 * (fewer requests), never more than 10,000 parts, never a part above 5 GiB.
 *
 * @example
 * planCopyParts(6 * 1024 ** 3).length; // 12
 */
export function planCopyParts(size: number, minPartBytes = MIN_COPY_PART_BYTES): Array<{ partNumber: number; first: number; last: number }> {
  const partBytes = Math.max(minPartBytes, Math.ceil(size / MAX_PARTS));
  if (partBytes > MAX_SINGLE_COPY_BYTES) throw new RangeError('object too large to copy');
  const parts = [];
  for (let first = 0, n = 1; first < size; first += partBytes, n++) {
    parts.push({ partNumber: n, first, last: Math.min(first + partBytes, size) - 1 });
  }
  return parts;
}

/** Encodes a `bucket/key` copy source: each segment URI-encoded, slashes kept. */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Server-side copy within a bucket. `ifMatch` pins the source version: if the source was replaced after we
 * hashed it, the copy fails (412) instead of storing other bytes under our hash.
 *
 * @example
 * await copyWithin(client, { bucket, from: 'tmp/x', to: 'blobs/<sha>', size, ifMatch: etag });
 */
export async function copyWithin(client: S3Client, p: { bucket: string; from: string; to: string; size: number; ifMatch?: string | undefined }): Promise<void> {
  const source = copySource(p.bucket, p.from);
  if (p.size <= MAX_SINGLE_COPY_BYTES) {
    await client.send(new CopyObjectCommand({ Bucket: p.bucket, Key: p.to, CopySource: source, CopySourceIfMatch: p.ifMatch }));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: p.bucket, Key: p.to }));
  try {
    const plan = planCopyParts(p.size);
    const done: Array<{ PartNumber: number; ETag: string }> = [];
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      for (let part = plan[next++]; part !== undefined && !failed; part = plan[next++]) {
        const res = await client.send(
          new UploadPartCopyCommand({
            Bucket: p.bucket,
            Key: p.to,
            UploadId,
            PartNumber: part.partNumber,
            CopySource: source,
            CopySourceRange: `bytes=${part.first}-${part.last}`,
            CopySourceIfMatch: p.ifMatch,
          }),
        );
        const etag = res.CopyPartResult?.ETag;
        if (!etag) throw new Error('UploadPartCopy returned no ETag');
        done.push({ PartNumber: part.partNumber, ETag: etag });
      }
    };
    // allSettled, not all: the abort below must not run while sibling parts are still being created.
    const results = await Promise.allSettled(
      Array.from({ length: Math.min(COPY_CONCURRENCY, plan.length) }, () =>
        worker().catch((err: unknown) => {
          failed = true;
          throw err;
        }),
      ),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    done.sort((a, b) => a.PartNumber - b.PartNumber);
    await client.send(new CompleteMultipartUploadCommand({ Bucket: p.bucket, Key: p.to, UploadId, MultipartUpload: { Parts: done } }));
  } catch (err) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: p.bucket, Key: p.to, UploadId })).catch(() => undefined);
    throw err;
  }
}
