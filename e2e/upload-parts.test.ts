/**
 * Large uploads in parts (F8, B8), on the local disk and on object storage (a real s3rver): parts arrive in any
 * order, a part of the wrong size is refused, an interrupted upload resumes from what arrived (only the missing
 * parts are sent again), and finishing verifies the whole before it becomes one version.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesRoutes, StoaError } from '@stoa/contract';
import { bootstrap, loadConfig, openPlatform, type Platform } from '@stoa/core';
import { StoaClient, uploadInParts } from '@stoa/sdk';
import { buildApp } from '@stoa/server';
import type { FastifyInstance } from 'fastify';
import { startFauxqsBucket } from './helpers/fauxqs.js';
import { startS3Bucket } from './helpers/s3.js';

const TOKEN = 'stoa_test_admin_token_for_upload_parts';
const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Subject {
  name: string;
  /** The part size the server uses: the smallest S3 accepts on object storage, small on the local disk. */
  part: number;
  env(dir: string): Promise<Record<string, string>>;
}

let s3: S3rver | undefined;
let stopFauxqs: (() => Promise<void>) | undefined;
const subjects: Subject[] = [
  { name: 'local disk', part: 64 * 1024, env: async () => ({ STOA_UPLOAD_PART_BYTES: String(64 * 1024) }) },
  {
    name: 'object storage (s3rver)',
    part: 5 * MiB,
    async env(dir) {
      const started = await startS3Bucket(join(dir, 's3'), 'stoa', 'parts');
      s3 = started.s3;
      return {
        ...started.env,
        STOA_UPLOAD_PART_BYTES: '1024',
      };
    },
  },
  {
    name: 'object storage (fauxqs)',
    part: 5 * MiB,
    async env() {
      const started = await startFauxqsBucket('stoa', 'parts');
      stopFauxqs = started.stop;
      return { ...started.env, STOA_UPLOAD_PART_BYTES: '1024' };
    },
  },
];

describe('direct uploads in parts', () => {
  describe.each(subjects)('on $name', (subject) => {
    let dir: string;
    let app: FastifyInstance;
    let platform: Platform;
    let stoa: StoaClient;
    const project = 'default';

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'stoa-parts-'));
      const env = { STOA_ADMIN_TOKEN: TOKEN, STOA_QUOTA_BYTES: String(200 * MiB), ...(await subject.env(dir)) };
      platform = await openPlatform(loadConfig({ dataDir: join(dir, 'data'), env }));
      await bootstrap(platform);
      app = await buildApp({ platform, webRoot: null });
      stoa = new StoaClient({ url: await app.listen({ port: 0, host: '127.0.0.1' }), token: TOKEN });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await platform?.close();
      await s3?.close();
      s3 = undefined;
      await stopFauxqs?.();
      stopFauxqs = undefined;
      await rm(dir, { recursive: true, force: true });
    });

    /** Sends part `n` of `data` the way the ticket says: to its presigned URL (and reports it) or to the server. */
    async function sendPart(uploadId: string, n: number, bytes: Buffer): Promise<void> {
      const { parts } = await stoa.call(filesRoutes.uploadParts, { project, uploadId, partNumbers: [n] });
      const t = parts[0]!;
      if (t.url) {
        const res = await fetch(t.url, { method: 'PUT', headers: t.headers, body: new Uint8Array(bytes) });
        expect(res.status).toBe(200);
        await stoa.call(filesRoutes.partSent, { project, uploadId, partNumber: n, etag: res.headers.get('etag')! });
      } else {
        await stoa.send(filesRoutes.sendUploadPart, { project, uploadId, partNumber: n }, bytes, { size: bytes.length });
      }
    }

    it('takes parts in any order, says which arrived, refuses a part of the wrong size, and commits one verified version', async () => {
      const data = randomBytes(2 * subject.part + 777);
      const ticket = await stoa.call(filesRoutes.startUpload, { project, path: 'parts/whole.bin', size: data.length, sha256: sha(data), parts: true });
      expect(ticket).toMatchObject({ partSize: subject.part, partCount: 3, url: null });
      const span = (n: number) => data.subarray((n - 1) * subject.part, Math.min(n * subject.part, data.length));

      await sendPart(ticket.uploadId, 3, span(3));
      await sendPart(ticket.uploadId, 1, span(1));
      const status = await stoa.call(filesRoutes.uploadStatus, { project, uploadId: ticket.uploadId });
      expect(status.received).toEqual([
        { partNumber: 1, size: subject.part },
        { partNumber: 3, size: 777 },
      ]);
      expect(status.receivedBytes).toBe(subject.part + 777);

      // Finishing before every part arrived is refused, and the upload stays open.
      await expect(stoa.call(filesRoutes.finishUpload, { project, uploadId: ticket.uploadId })).rejects.toMatchObject({ code: 'bad_request' });
      await expect(stoa.call(filesRoutes.uploadParts, { project, uploadId: ticket.uploadId, partNumbers: [4] })).rejects.toMatchObject({
        code: 'bad_request',
      });
      if (!ticket.url && subject.name === 'local disk') {
        // Through the server a part must be exactly its size: a longer or shorter one is refused and not counted.
        await expect(
          stoa.send(filesRoutes.sendUploadPart, { project, uploadId: ticket.uploadId, partNumber: 2 }, span(2).subarray(1), { size: subject.part - 1 }),
        ).rejects.toMatchObject({ code: 'bad_request' });
        await expect(
          stoa.send(filesRoutes.sendUploadPart, { project, uploadId: ticket.uploadId, partNumber: 2 }, Buffer.concat([span(2), Buffer.from('x')]), {
            size: subject.part + 1,
          }),
        ).rejects.toMatchObject({ code: 'bad_request' });
        expect((await stoa.call(filesRoutes.uploadStatus, { project, uploadId: ticket.uploadId })).received).toHaveLength(2);
      }
      await sendPart(ticket.uploadId, 2, span(2));
      const file = await stoa.call(filesRoutes.finishUpload, { project, uploadId: ticket.uploadId });
      expect(file).toMatchObject({ path: 'parts/whole.bin', size: data.length, sha256: sha(data), version: 1 });
      const back = Buffer.from(await (await stoa.open(filesRoutes.download, { project, path: 'parts/whole.bin' })).arrayBuffer());
      expect(sha(back)).toBe(sha(data));
      const usage = await stoa.call(filesRoutes.usage, { project });
      expect(usage.reserved).toBe(0);
      await expect(stoa.call(filesRoutes.uploadStatus, { project, uploadId: ticket.uploadId })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('resumes an interrupted upload in another client, sending only the parts that had not arrived', async () => {
      const data = randomBytes(3 * subject.part + 10);
      const open = (offset: number, n: number) => Readable.from([data.subarray(offset, offset + n)]);
      let uploadId = '';
      // The first client dies after two parts: the third part's bytes fail to read.
      const failing = uploadInParts(stoa, {
        project,
        path: 'parts/resumed.bin',
        size: data.length,
        concurrency: 1,
        tries: 1,
        onStarted: (id) => {
          uploadId = id;
        },
        openPart: (offset, n) => {
          if (offset >= 2 * subject.part) throw new Error('the disk went away');
          return open(offset, n);
        },
      });
      await expect(failing).rejects.toThrow('the disk went away');
      expect((await stoa.call(filesRoutes.uploadStatus, { project, uploadId })).received.map((p) => p.partNumber)).toEqual([1, 2]);

      const sent: number[] = [];
      let progress = 0;
      const file = await uploadInParts(stoa, {
        project,
        path: 'parts/resumed.bin',
        size: data.length,
        resume: uploadId,
        onStarted: (id) => expect(id).toBe(uploadId),
        onProgress: (b) => (progress = b),
        openPart: (offset, n) => {
          sent.push(offset / subject.part + 1);
          return open(offset, n);
        },
      });
      expect(sent.sort()).toEqual([3, 4]);
      expect(progress).toBe(data.length);
      expect(file).toMatchObject({ path: 'parts/resumed.bin', size: data.length, sha256: sha(data) });
    });

    it('holds expectedVersion when it starts and again when it finishes, so a change made meanwhile is not overwritten', async () => {
      const data = randomBytes(subject.part + 5);
      const path = 'parts/versioned.bin';
      await stoa.send(filesRoutes.upload, { project, path }, Buffer.from('v1'), { size: 2 });
      await expect(stoa.call(filesRoutes.startUpload, { project, path, size: data.length, parts: true, expectedVersion: 2 })).rejects.toMatchObject({
        code: 'version_conflict',
      });
      const open = (offset: number, n: number) => Readable.from([data.subarray(offset, offset + n)]);
      let raced = false;
      const upload = uploadInParts(stoa, {
        project,
        path,
        size: data.length,
        expectedVersion: 1,
        concurrency: 1,
        openPart: (offset, n) => {
          raced = true;
          return open(offset, n);
        },
        onStarted: async () => {
          // Someone saves the file after the upload started from version 1.
          await stoa.send(filesRoutes.upload, { project, path }, Buffer.from('v2'), { size: 2 });
        },
      });
      await expect(upload).rejects.toMatchObject({ code: 'version_conflict' });
      expect(raced).toBe(true);
      const kept = Buffer.from(await (await stoa.open(filesRoutes.download, { project, path })).arrayBuffer());
      expect(kept.toString()).toBe('v2');
    });

    it('starts anew when the upload to resume is gone, and abort gives the reserved space back', async () => {
      const data = randomBytes(subject.part + 1);
      const ticket = await stoa.call(filesRoutes.startUpload, { project, path: 'parts/aborted.bin', size: data.length, parts: true });
      expect((await stoa.call(filesRoutes.usage, { project })).reserved).toBe(data.length);
      await sendPart(ticket.uploadId, 1, data.subarray(0, subject.part));
      await stoa.call(filesRoutes.abortUpload, { project, uploadId: ticket.uploadId });
      expect((await stoa.call(filesRoutes.usage, { project })).reserved).toBe(0);
      const err = await stoa.call(filesRoutes.uploadStatus, { project, uploadId: ticket.uploadId }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoaError);
      expect(err).toMatchObject({ code: 'not_found' });

      let started = '';
      const file = await uploadInParts(stoa, {
        project,
        path: 'parts/aborted.bin',
        size: data.length,
        resume: ticket.uploadId,
        onStarted: (id) => {
          started = id;
        },
        openPart: (offset, n) => Readable.from([data.subarray(offset, offset + n)]),
      });
      expect(started).not.toBe(ticket.uploadId);
      expect(file.sha256).toBe(sha(data));
    });
  });
});

/**
 * A proxy with a request body limit (nginx's client_max_body_size, a load balancer's): bodies over `limit` bytes
 * get 413 with a plain-text body, the rest pass to `target` unchanged.
 */
async function bodyLimitProxy(target: string, limit: number, refusal: 'answer' | 'cut' = 'answer'): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      // Some proxies drop the connection of a body over their limit without an answer the client gets to read.
      if (refusal === 'cut') return void req.once('data', () => req.socket.destroy());
      req.resume();
      res.writeHead(413, { 'content-type': 'text/html', connection: 'close' }).end('<html><body>413 Request Entity Too Large</body></html>');
      return;
    }
    const out = request(target + req.url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('parts a store refuses as too large (issue 28)', () => {
  let dir: string;
  let platform: Platform | undefined;
  let app: FastifyInstance | undefined;
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await app?.close();
    await platform?.close();
    await stop?.();
    await rm(dir, { recursive: true, force: true });
  });
  async function serve(env: Record<string, string>): Promise<string> {
    dir ??= await mkdtemp(join(tmpdir(), 'stoa-parts-413-'));
    await app?.close();
    await platform?.close();
    platform = await openPlatform(
      loadConfig({ dataDir: join(dir, `data-${Date.now()}`), env: { STOA_ADMIN_TOKEN: TOKEN, STOA_QUOTA_BYTES: String(200 * MiB), ...env } }),
    );
    await bootstrap(platform);
    app = await buildApp({ platform, webRoot: null });
    return app.listen({ port: 0, host: '127.0.0.1' });
  }
  const upload = (stoa: StoaClient, path: string, data: Buffer, progress: number[], partBytes?: number) =>
    uploadInParts(stoa, {
      project: 'default',
      path,
      size: data.length,
      partBytes,
      onProgress: (b) => progress.push(b),
      openPart: (offset, n) => Readable.from([data.subarray(offset, offset + n)]),
    });
  const rising = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

  it('the default part fits a store that takes 11 MiB a request, and parts over it are sent again at half the size', async () => {
    const started = await startFauxqsBucket('stoa', 'limits');
    stop = started.stop;
    // The default part size (8 MiB) goes through fauxqs as it is.
    let stoa = new StoaClient({ url: await serve(started.env), token: TOKEN });
    const data = randomBytes(17 * MiB + 123);
    const ticket = await stoa.call(filesRoutes.startUpload, { project: 'default', path: 'limits/probe.bin', size: data.length, parts: true });
    expect(ticket.partSize).toBe(8 * MiB);
    await stoa.call(filesRoutes.abortUpload, { project: 'default', uploadId: ticket.uploadId });
    let progress: number[] = [];
    expect((await upload(stoa, 'limits/default.bin', data, progress)).sha256).toBe(sha(data));
    expect(rising(progress)).toBe(true);
    expect(progress.at(-1)).toBe(data.length);

    // A server set to 16 MiB parts: fauxqs answers 413; the upload starts again in 8 MiB parts and makes one version.
    stoa = new StoaClient({ url: await serve({ ...started.env, STOA_UPLOAD_PART_BYTES: String(16 * MiB) }), token: TOKEN });
    progress = [];
    const file = await upload(stoa, 'limits/big.bin', data, progress);
    expect(file).toMatchObject({ path: 'limits/big.bin', size: data.length, sha256: sha(data), version: 1 });
    expect(rising(progress)).toBe(true);
    expect(progress.at(-1)).toBe(data.length);
    const back = Buffer.from(await (await stoa.open(filesRoutes.download, { project: 'default', path: 'limits/big.bin' })).arrayBuffer());
    expect(sha(back)).toBe(sha(data));
    expect((await stoa.call(filesRoutes.usage, { project: 'default' })).reserved).toBe(0);
  });

  it('behind a proxy that takes less than the smallest part, the refusal names STOA_UPLOAD_PART_BYTES and nothing is kept', async () => {
    const url = await serve({ STOA_UPLOAD_PART_BYTES: String(512 * 1024) });
    const proxy = await bodyLimitProxy(url, 100 * 1024);
    try {
      const stoa = new StoaClient({ url: proxy.url, token: TOKEN });
      const data = randomBytes(1200 * 1024);
      const progress: number[] = [];
      const err = await upload(stoa, 'limits/proxied.bin', data, progress).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoaError);
      expect((err as StoaError).message).toMatch(/refused as too large \(HTTP 413\).*STOA_UPLOAD_PART_BYTES/);
      expect(rising(progress)).toBe(true);
      // Smaller parts that do pass go through the same proxy.
      expect((await upload(stoa, 'limits/small-parts.bin', data, [], 64 * 1024)).sha256).toBe(sha(data));
      const usage = await stoa.call(filesRoutes.usage, { project: 'default' });
      expect(usage.reserved).toBe(0);
      await expect(stoa.call(filesRoutes.stat, { project: 'default', path: 'limits/proxied.bin' })).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await proxy.close();
    }
  });

  it('behind a proxy that cuts the connection of a body over its limit, parts cut twice are sent again at half the size', async () => {
    const url = await serve({ STOA_UPLOAD_PART_BYTES: String(1024 * 1024) });
    const proxy = await bodyLimitProxy(url, 700 * 1024, 'cut');
    try {
      const stoa = new StoaClient({ url: proxy.url, token: TOKEN });
      const data = randomBytes(2500 * 1024);
      const file = await upload(stoa, 'limits/cut.bin', data, []);
      expect(file).toMatchObject({ path: 'limits/cut.bin', size: data.length, sha256: sha(data), version: 1 });
      expect((await stoa.call(filesRoutes.usage, { project: 'default' })).reserved).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
