import { CreateBucketCommand, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBlobContract } from './blob-contract.js';
import * as root from './index.js';
import { createS3BlobStore } from './s3-store.js';
import { collect, listAll } from './testing/streams.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let server: ChildProcess;
let dir: string;
let endpoint: string;
let admin: S3Client;
let n = 0;

/**
 * s3rver runs in a process of its own, so what this process holds is the store's memory alone: the streaming
 * test bounds the store, and an in-process server's own buffers (a part it receives) made that bound flaky (issue 32).
 */
function startS3rverProcess(directory: string): Promise<{ child: ChildProcess; port: number }> {
  const entry = createRequire(import.meta.url).resolve('s3rver');
  const code = `const S3rver = require(${JSON.stringify(entry)});
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(directory)} }).run().then((a) => console.log('port ' + a.port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const port = /port (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.once('exit', (c) => reject(new Error(`s3rver exited with ${c} before it listened`)));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stoa-blob-s3rver-'));
  const started = await startS3rverProcess(dir);
  server = started.child;
  endpoint = `http://127.0.0.1:${started.port}`;
  admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
});

afterAll(async () => {
  admin?.destroy();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

async function keysUnder(bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of paginateListObjectsV2({ client: admin }, { Bucket: bucket, Prefix: prefix })) {
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
  }
  return keys;
}

// A fresh bucket per test keeps tests independent; the prefix checks that every key honours it.
runBlobContract('s3 (s3rver)', async () => {
  const bucket = `stoa-test-${process.pid}-${++n}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const store = createS3BlobStore({ bucket, prefix: '/tenant/a/', endpoint, credentials });
  return {
    store,
    cleanup: async () => undefined,
    leftovers: async () => {
      const all = await keysUnder(bucket, '');
      const stray = all.filter((k) => !k.startsWith('tenant/a/blobs/'));
      return stray;
    },
  };
});

describe('createS3BlobStore from the package root (SDK loaded on first use)', () => {
  it('checks options at once and works like the eager store', async () => {
    expect(() => root.createS3BlobStore({ bucket: 'x', prefix: 'a/../b' })).toThrow();
    const bucket = `stoa-test-${process.pid}-lazy`;
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    const store = root.createS3BlobStore({ bucket, endpoint, credentials });
    expect(store.kind).toBe('s3');
    const r = await store.put('lazy');
    expect(await collect(await store.get(r.key, { start: 1 }))).toEqual(Buffer.from('azy'));
    expect(await listAll(store)).toEqual([r.key]);
    expect(await store.sweepTemp(0)).toBe(0);
    await store.close?.();
    const opened = await root.openS3BlobStore({ bucket, endpoint, credentials });
    expect(await opened.stat(r.key)).toEqual({ size: 4 });
    await opened.close?.();
  });
});
