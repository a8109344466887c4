import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { copyWithin, MAX_SINGLE_COPY_BYTES, planCopyParts } from './s3-copy.js';

const GiB = 1024 ** 3;

/** s3rver has no UploadPartCopy, so the > 5 GiB path is checked against a recording fake client. */
function fakeClient(failPart?: number): { client: S3Client; sent: Array<{ name: string; input: Record<string, unknown> }> } {
  const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
  const client = {
    send: async (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: cmd.constructor.name, input: cmd.input });
      if (cmd instanceof CreateMultipartUploadCommand) return { UploadId: 'mpu-1' };
      if (cmd instanceof UploadPartCopyCommand) {
        if (cmd.input.PartNumber === failPart) throw Object.assign(new Error('boom'), { name: 'InternalError' });
        return { CopyPartResult: { ETag: `"etag-${cmd.input.PartNumber}"` } };
      }
      return {};
    },
  } as unknown as S3Client;
  return { client, sent };
}

describe('planCopyParts', () => {
  it('covers the object with contiguous parts of at least 512 MiB', () => {
    const size = 6 * GiB + 123;
    const parts = planCopyParts(size);
    expect(parts).toHaveLength(13);
    expect(parts[0]).toEqual({ partNumber: 1, first: 0, last: 512 * 1024 ** 2 - 1 });
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.first).toBe(parts[i - 1]!.last + 1);
    expect(parts.at(-1)!.last).toBe(size - 1);
  });

  it('never plans more than 10,000 parts or a part above 5 GiB', () => {
    const huge = 5 * 1024 ** 4; // 5 TiB, the S3 object maximum
    const parts = planCopyParts(huge);
    expect(parts.length).toBeLessThanOrEqual(10_000);
    expect(Math.max(...parts.map((p) => p.last - p.first + 1))).toBeLessThanOrEqual(MAX_SINGLE_COPY_BYTES);
    expect(parts.at(-1)!.last).toBe(huge - 1);
  });
});

describe('copyWithin', () => {
  it('uses one CopyObject up to 5 GiB, pinned to the source ETag and with an encoded source', async () => {
    const { client, sent } = fakeClient();
    await copyWithin(client, { bucket: 'b', from: 'pre fix/tmp/x', to: 'pre fix/blobs/y', size: MAX_SINGLE_COPY_BYTES, ifMatch: '"e"' });
    expect(sent).toEqual([
      {
        name: CopyObjectCommand.name,
        input: { Bucket: 'b', Key: 'pre fix/blobs/y', CopySource: 'b/pre%20fix/tmp/x', CopySourceIfMatch: '"e"' },
      },
    ]);
  });

  it('copies larger objects part by part and completes with the parts in order', async () => {
    const { client, sent } = fakeClient();
    const size = 6 * GiB;
    await copyWithin(client, { bucket: 'b', from: 'tmp/x', to: 'blobs/y', size, ifMatch: '"e"' });
    const parts = sent.filter((s) => s.name === UploadPartCopyCommand.name);
    expect(parts).toHaveLength(12);
    expect(parts.map((p) => p.input.CopySourceRange).sort()).toEqual(
      planCopyParts(size)
        .map((p) => `bytes=${p.first}-${p.last}`)
        .sort(),
    );
    for (const p of parts) expect(p.input).toMatchObject({ UploadId: 'mpu-1', CopySourceIfMatch: '"e"', Key: 'blobs/y' });
    const complete = sent.at(-1)!;
    expect(complete.name).toBe(CompleteMultipartUploadCommand.name);
    const done = (complete.input.MultipartUpload as { Parts: Array<{ PartNumber: number; ETag: string }> }).Parts;
    expect(done.map((p) => p.PartNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(done[0]!.ETag).toBe('"etag-1"');
  });

  it('aborts the multipart copy when a part fails', async () => {
    const { client, sent } = fakeClient(3);
    await expect(copyWithin(client, { bucket: 'b', from: 'tmp/x', to: 'blobs/y', size: 6 * GiB })).rejects.toThrow('boom');
    expect(sent.at(-1)!.name).toBe(AbortMultipartUploadCommand.name);
    expect(sent.some((s) => s.name === CompleteMultipartUploadCommand.name)).toBe(false);
  });
});
