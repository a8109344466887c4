import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobHashMismatchError, BlobNotFoundError, BlobRangeError, BlobSizeMismatchError, BlobStorageError, BlobTooLargeError, toSafeError } from './errors.js';
import { checkInMemory, HashingStream, hashStream, inMemory, toReadable, type BlobSource } from './hashing-stream.js';
import { assertBlobKey, assertByteLimit, assertUploadId, isBlobKey, normalizeSha256 } from './keys.js';
import { assertRangeShape, resolveRange, sliceStream, type ByteRange } from './range.js';
import { copyWithin, MAX_SINGLE_COPY_BYTES } from './s3-copy.js';
import { errName, isNotFound, isPreconditionFailed, status } from './s3-errors.js';
import { abortStaleMultipart, DEFAULT_UPLOAD_TUNING, uploadHashed, type UploadTuning } from './s3-upload.js';
import { normalizePrefix } from './s3-url.js';
import type { BlobStore, PartSpan, PresignedPut, PromoteExpectation, PutOptions, PutResult } from './types.js';

/**
 * Options of {@link createS3BlobStore}.
 *
 * @example
 * const opts: S3BlobStoreOptions = { ...parseS3Url('s3://stoa/prod')!, endpoint: 'http://minio:9000' };
 */
export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket (`tenants/acme`); slashes at either end are optional. */
  prefix?: string | undefined;
  /** S3-compatible endpoint (MinIO, R2, s3rver...). Implies path-style addressing unless `forcePathStyle: false`. */
  endpoint?: string | undefined;
  region?: string | undefined;
  forcePathStyle?: boolean | undefined;
  /** Omit to use the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Multipart tuning for `put` and `writeStaging`. */
  upload?: Partial<UploadTuning> | undefined;
}

/**
 * The S3 blob store; exposes its client for administration (bucket creation in tests, health checks).
 *
 * @example
 * await store.client.send(new HeadBucketCommand({ Bucket: 'stoa' }));
 */
export interface S3BlobStore extends BlobStore {
  readonly kind: 's3';
  readonly client: S3Client;
  sweepTemp(olderThanMs: number): Promise<number>;
  close(): Promise<void>;
}

const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** Streams up to this size are stored with one PUT to their final key (see put). */
const SMALL_STREAM_BYTES = 1024 * 1024;

/**
 * Reads at most `limit` bytes of `source`. When the stream ended within them: its bytes and `rest: null`;
 * otherwise `rest` is a stream of everything, the bytes read so far first.
 */
async function readHead(source: Readable, limit: number): Promise<{ bytes: Buffer; rest: Readable | null }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size <= limit) {
    const r = await it.next();
    if (r.done) return { bytes: Buffer.concat(chunks, size), rest: null };
    const chunk = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    chunks.push(chunk);
    size += chunk.length;
  }
  const rest = Readable.from(
    (async function* () {
      yield* chunks;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    })(),
    { objectMode: false },
  );
  return { bytes: Buffer.alloc(0), rest };
}

/**
 * A blob store in an S3-compatible bucket: blobs under `<prefix>/blobs/<sha256>`, direct uploads under
 * `<prefix>/staging/<uploadId>`, writes in progress under `<prefix>/tmp/`. A stream is uploaded to a temporary key
 * while it is hashed, then server-side copied to its hash key; in-memory content is hashed first and sent
 * straight to its key. Either way a blob key only ever names complete, verified content.
 *
 * Limits: a presigned direct upload sent whole is a single PUT, so at most 5 GiB (S3's own limit); one sent in
 * parts is an S3 multipart upload (up to 10,000 parts); larger copies use UploadPartCopy. Configure a bucket lifecycle rule "abort incomplete multipart uploads after 1 day" as well:
 * a crashed server cannot abort its own uploads.
 *
 * @example
 * const store = createS3BlobStore({ bucket: 'stoa', prefix: 'prod', endpoint: 'http://localhost:9000',
 *   credentials: { accessKeyId: 'minio', secretAccessKey: 'minio123' } });
 * const { url } = (await store.presignStagingPut('upl_1', size, 900))!;
 */
export function createS3BlobStore(opts: S3BlobStoreOptions): S3BlobStore {
  const { bucket } = opts;
  const base = normalizePrefix(opts.prefix ?? '');
  const p = base === '' ? '' : `${base}/`;
  const keys = {
    blobs: `${p}blobs/`,
    tmp: `${p}tmp/`,
    staging: `${p}staging/`,
  };
  const checkExpiry = (expiresSeconds: number): void => {
    if (!Number.isSafeInteger(expiresSeconds) || expiresSeconds < 1 || expiresSeconds > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`expiresSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}`);
    }
  };
  const tuning: UploadTuning = { ...DEFAULT_UPLOAD_TUNING, ...opts.upload };
  const client = new S3Client({
    region: opts.region ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    // Flexible checksums (the SDK default since 2025) are not understood by s3rver and several S3-compatible
    // stores, which then store the aws-chunked framing as object bytes. We verify content by sha256 ourselves.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  async function deleteQuiet(key: string): Promise<void> {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
  }

  async function head(key: string): Promise<{ size: number; etag: string | undefined } | null> {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { size: res.ContentLength ?? 0, etag: res.ETag };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Makes verified content at `from` the blob `sha256`, then removes `from`. An existing blob wins. */
  async function commit(from: string, sha256: string, size: number, ifMatch?: string, keepSource = false): Promise<PutResult> {
    const final = keys.blobs + sha256;
    if ((await head(final)) === null) await copyWithin(client, { bucket, from, to: final, size, ifMatch });
    if (!keepSource) await deleteQuiet(from);
    return { key: sha256, size, sha256 };
  }

  /** Answers a range request, repairing servers that ignore or widen `Range` (HTTP permits a 200 reply). */
  async function getRange(key: string, range: ByteRange): Promise<Readable> {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keys.blobs + key, Range: `bytes=${range.start}-${range.end ?? ''}` }));
    const body = res.Body as Readable;
    const cr = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.ContentRange ?? '');
    const total = cr ? (cr[3] === '*' ? undefined : Number(cr[3])) : res.ContentLength;
    const got = cr ? { start: Number(cr[1]), end: Number(cr[2]) } : { start: 0, end: (res.ContentLength ?? 0) - 1 };
    if (total !== undefined && range.start >= total) {
      body.destroy();
      throw new BlobRangeError();
    }
    const want = total !== undefined ? resolveRange(range, total) : { start: range.start, end: range.end ?? got.end };
    if (got.start === want.start && got.end === want.end) return body;
    if (got.start > want.start || got.end < want.end) {
      body.destroy();
      throw new BlobStorageError('Object storage returned a different range than requested', 'RangeMismatch');
    }
    const out = sliceStream(want.start - got.start, want.end - want.start + 1);
    pipeline(body, out).catch(() => undefined); // errors reach the consumer through `out`
    return out;
  }

  return {
    kind: 's3',
    client,

    async put(source: BlobSource, opts: PutOptions = {}): Promise<PutResult> {
      assertByteLimit(opts.maxBytes);
      const expected = opts.expectedSha256 === undefined ? undefined : normalizeSha256(opts.expectedSha256);
      // A small stream (most files) is read whole first: then it goes straight to its final key in one PUT,
      // instead of a temporary object, a server-side copy and a delete.
      let buf = inMemory(source);
      if (buf === null) {
        const head = await readHead(source as Readable, SMALL_STREAM_BYTES);
        if (head.rest === null) buf = head.bytes;
        else source = head.rest;
      }
      if (buf !== null) {
        // Bytes in memory are hashed before sending, so they can go straight to their final key (a PUT or a
        // completed multipart upload appears whole or not at all), and an existing blob costs one HEAD.
        const sha256 = checkInMemory(buf, opts.maxBytes, expected);
        try {
          if ((await head(keys.blobs + sha256)) === null) {
            await new Upload({ client, params: { Bucket: bucket, Key: keys.blobs + sha256, Body: buf }, ...tuning }).done();
          }
          return { key: sha256, size: buf.length, sha256 };
        } catch (err) {
          throw toSafeError(err, 'store the content');
        }
      }
      const tmp = keys.tmp + randomUUID();
      try {
        const hasher = await uploadHashed(client, bucket, tmp, toReadable(source), { maxBytes: opts.maxBytes, tuning });
        if (expected !== undefined && hasher.sha256 !== expected) throw new BlobHashMismatchError(expected, hasher.sha256);
        return await commit(tmp, hasher.sha256, hasher.bytes);
      } catch (err) {
        await deleteQuiet(tmp);
        throw toSafeError(err, 'store the content');
      }
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      assertBlobKey(key);
      if (range !== undefined) assertRangeShape(range);
      try {
        if (range !== undefined) return await getRange(key, range);
        return (await client.send(new GetObjectCommand({ Bucket: bucket, Key: keys.blobs + key }))).Body as Readable;
      } catch (err) {
        if (isNotFound(err)) throw new BlobNotFoundError();
        if (errName(err) === 'InvalidRange' || status(err) === 416) throw new BlobRangeError();
        throw toSafeError(err, 'read the blob');
      }
    },

    async read(key: string): Promise<Buffer> {
      assertBlobKey(key);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keys.blobs + key }));
        if (!res.Body) return Buffer.alloc(0);
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (err) {
        if (isNotFound(err)) throw new BlobNotFoundError();
        throw toSafeError(err, 'read the blob');
      }
    },

    async stat(key: string): Promise<{ size: number } | null> {
      assertBlobKey(key);
      try {
        const h = await head(keys.blobs + key);
        return h && { size: h.size };
      } catch (err) {
        throw toSafeError(err, 'inspect the blob');
      }
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keys.blobs + key }));
      } catch (err) {
        if (!isNotFound(err)) throw toSafeError(err, 'delete the blob');
      }
    },

    async *list(): AsyncIterable<string> {
      try {
        for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: keys.blobs })) {
          for (const obj of page.Contents ?? []) {
            const name = obj.Key?.slice(keys.blobs.length);
            if (isBlobKey(name)) yield name;
          }
        }
      } catch (err) {
        throw toSafeError(err, 'list blobs');
      }
    },

    async presignGet(key: string, expiresSeconds: number, as: { filename: string; contentType: string }): Promise<string> {
      assertBlobKey(key);
      checkExpiry(expiresSeconds);
      // The response headers are part of the signature: the link always downloads, under the file's name.
      const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(as.filename)}`;
      return getSignedUrl(
        client,
        new GetObjectCommand({ Bucket: bucket, Key: keys.blobs + key, ResponseContentDisposition: disposition, ResponseContentType: as.contentType }),
        { expiresIn: expiresSeconds },
      );
    },

    async presignStagingPut(uploadId: string, size: number, expiresSeconds: number): Promise<PresignedPut> {
      assertUploadId(uploadId);
      assertByteLimit(size, 'size');
      if (size > MAX_SINGLE_COPY_BYTES) throw new BlobTooLargeError(MAX_SINGLE_COPY_BYTES);
      checkExpiry(expiresSeconds);
      // Signing Content-Length makes the URL useless for any other size, so a client cannot overrun the space
      // reserved for it (B8); promoteStaging still checks the size.
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key: keys.staging + uploadId, ContentLength: size }), {
        expiresIn: expiresSeconds,
        signableHeaders: new Set(['content-length']),
      });
      return { url, headers: {} };
    },

    async writeStaging(uploadId: string, source: Readable, maxBytes: number): Promise<{ size: number; sha256: string }> {
      assertUploadId(uploadId);
      assertByteLimit(maxBytes);
      try {
        const hasher = await uploadHashed(client, bucket, keys.staging + uploadId, source, { maxBytes, tuning });
        return { size: hasher.bytes, sha256: hasher.sha256 };
      } catch (err) {
        throw toSafeError(err, 'store the upload');
      }
    },

    async promoteStaging(uploadId: string, expected: PromoteExpectation): Promise<PutResult> {
      assertUploadId(uploadId);
      assertByteLimit(expected.size, 'size');
      const expectedSha = expected.sha256 === undefined ? undefined : normalizeSha256(expected.sha256);
      const key = keys.staging + uploadId;
      try {
        const h = await head(key);
        if (h === null) throw new BlobNotFoundError('Staged upload');
        if (h.size !== expected.size) throw new BlobSizeMismatchError(expected.size, h.size);
        // The presigned URL may still be valid: pin the version we hash (IfMatch) and the one we copy
        // (CopySourceIfMatch), so a re-upload in between cannot land under this hash.
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: h.etag }));
        const hasher = await hashStream(res.Body as Readable);
        if (hasher.bytes !== expected.size) throw new BlobSizeMismatchError(expected.size, hasher.bytes);
        if (expectedSha !== undefined && hasher.sha256 !== expectedSha) throw new BlobHashMismatchError(expectedSha, hasher.sha256);
        return await commit(key, hasher.sha256, hasher.bytes, h.etag, expected.keepStaging);
      } catch (err) {
        if (isPreconditionFailed(err)) {
          throw new BlobStorageError('The staged upload changed while it was being promoted', 'StagingChanged', { cause: err });
        }
        if (isNotFound(err)) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(err, 'promote the upload');
      }
    },

    async deleteStaging(uploadId: string): Promise<void> {
      assertUploadId(uploadId);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keys.staging + uploadId }));
      } catch (err) {
        if (!isNotFound(err)) throw toSafeError(err, 'delete the upload');
      }
    },

    async startStagingParts(uploadId: string, size: number): Promise<string> {
      assertUploadId(uploadId);
      assertByteLimit(size, 'size');
      try {
        const r = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: keys.staging + uploadId }));
        if (!r.UploadId) throw new BlobStorageError('Object storage did not start the upload', 'NoUploadId');
        return r.UploadId;
      } catch (err) {
        throw toSafeError(err, 'start the upload');
      }
    },

    async presignStagingPart(uploadId: string, token: string, part: PartSpan, expiresSeconds: number): Promise<PresignedPut> {
      assertUploadId(uploadId);
      assertByteLimit(part.size, 'size');
      checkExpiry(expiresSeconds);
      // As for a whole upload: the signed Content-Length keeps every part to its reserved size.
      const url = await getSignedUrl(
        client,
        new UploadPartCommand({ Bucket: bucket, Key: keys.staging + uploadId, UploadId: token, PartNumber: part.number, ContentLength: part.size }),
        { expiresIn: expiresSeconds, signableHeaders: new Set(['content-length']) },
      );
      return { url, headers: {} };
    },

    async writeStagingPart(uploadId: string, token: string, part: PartSpan, source: Readable): Promise<{ etag: string }> {
      assertUploadId(uploadId);
      assertByteLimit(part.size, 'size');
      const hasher = new HashingStream({ maxBytes: part.size });
      // A short body would leave the request waiting for bytes that never come: it is aborted instead.
      const abort = new AbortController();
      const sent = client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: keys.staging + uploadId,
          UploadId: token,
          PartNumber: part.number,
          ContentLength: part.size,
          Body: hasher,
        }),
        { abortSignal: abort.signal },
      );
      const piped = pipeline(source, hasher).then(
        () => {
          if (hasher.bytes !== part.size) throw new BlobSizeMismatchError(part.size, hasher.bytes);
        },
        (err: unknown) => {
          throw toSafeError(err, 'store the part');
        },
      );
      piped.catch(() => abort.abort());
      const [pipedResult, uploaded] = await Promise.allSettled([piped, sent]);
      if (pipedResult.status === 'rejected') throw pipedResult.reason;
      if (uploaded.status === 'rejected') {
        if (isNotFound(uploaded.reason)) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(uploaded.reason, 'store the part');
      }
      const etag = uploaded.value.ETag;
      if (!etag) throw new BlobStorageError('Object storage did not confirm the part', 'NoETag');
      return { etag };
    },

    async completeStagingParts(uploadId: string, token: string, parts: { number: number; etag: string }[]): Promise<void> {
      assertUploadId(uploadId);
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: keys.staging + uploadId,
            UploadId: token,
            MultipartUpload: { Parts: [...parts].sort((a, b) => a.number - b.number).map((p) => ({ PartNumber: p.number, ETag: p.etag })) },
          }),
        );
      } catch (err) {
        // Joined already (a finish that is tried again, after a crash): the staged upload is there. Stores differ in
        // how they refuse to complete an upload twice (AWS: NoSuchUpload; s3rver: InternalError), so any refusal counts.
        if ((await head(keys.staging + uploadId).catch(() => null)) !== null) return;
        if (isNotFound(err)) throw new BlobNotFoundError('Staged upload');
        throw toSafeError(err, 'join the parts');
      }
    },

    async abortStagingParts(uploadId: string, token: string): Promise<void> {
      assertUploadId(uploadId);
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: keys.staging + uploadId, UploadId: token }));
      } catch (err) {
        // Stores that cannot abort (s3rver answers 405) leave the parts to the bucket's lifecycle rule.
        if (isNotFound(err) || status(err) === 405 || status(err) === 501) return;
        throw toSafeError(err, 'delete the upload');
      }
    },

    async sweepTemp(olderThanMs: number): Promise<number> {
      assertByteLimit(olderThanMs, 'olderThanMs');
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      try {
        for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: keys.tmp })) {
          for (const obj of page.Contents ?? []) {
            if (obj.Key && obj.LastModified && obj.LastModified.getTime() < cutoff) {
              await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: obj.Key }));
              removed++;
            }
          }
        }
        removed += await abortStaleMultipart(client, bucket, keys.tmp, cutoff);
        return removed;
      } catch (err) {
        throw toSafeError(err, 'sweep temporary objects');
      }
    },

    async close(): Promise<void> {
      client.destroy();
    },
  };
}
