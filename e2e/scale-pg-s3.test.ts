/**
 * "When one machine is not enough": two stateless Stoa servers over one shared database (PostgreSQL when
 * STOA_TEST_PG=1, else one SQLite file) and one S3-compatible bucket (a real s3rver). Whatever one server
 * writes, the other serves; the quota holds across both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, createHash } from 'node:crypto';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { startS3Bucket } from './helpers/s3.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const kind = testDbKinds().at(-1)!;
const TOKEN = 'stoa_test_admin_token_for_scale';
let s3: S3rver;
let dir: string;
let dropDb: () => Promise<void>;
// Each server is a process of its own, as in a real installation: two connections to one SQLite file in one
// process would wait on each other's lock synchronously.
const servers: StoaServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stoa-scale-'));
  const bucket = await startS3Bucket(join(dir, 's3'), 'stoa', 'prod');
  s3 = bucket.s3;
  const test = await createTestDb(kind);
  await test.db.close();
  dropDb = test.cleanup;
  const env = {
    ...(kind === 'postgres' ? { STOA_DATABASE_URL: test.url } : {}),
    ...bucket.env,
    STOA_ADMIN_TOKEN: TOKEN,
    STOA_QUOTA_BYTES: '100000',
    STOA_DIRECT_UPLOAD_BYTES: '20000',
  };
  for (let i = 0; i < 2; i++) {
    // Both servers get the same data folder only for SQLite's sake (the database file); their blobs are in S3.
    servers.push(await startStoaServer({ dataDir: kind === 'sqlite' ? join(test.file!, '..') : join(dir, `node${i}`), env }));
  }
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  await dropDb?.();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };
const content = (i: number, p: string) => `${servers[i]!.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(p)}`;

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe(`two servers, one ${kind} database, one S3 bucket`, { shuffle: false }, () => {
  it('serves from one server what the other stored, and sees deletes at once', async () => {
    const body = randomBytes(5000);
    const put = await fetch(content(0, 'shared/данные.bin'), { method: 'PUT', headers: auth, body });
    expect(put.status).toBe(201);
    const got = await fetch(content(1, 'shared/данные.bin'), { headers: auth });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    const del = await fetch(`${servers[1]!.url}/api/v1/projects/default/files?path=${encodeURIComponent('shared/данные.bin')}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(del.status).toBe(200);
    const gone = await fetch(content(0, 'shared/данные.bin'), { headers: auth });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe('not_found');
  });

  it('takes a large upload straight to object storage through a presigned URL, finished on the other server', async () => {
    const body = randomBytes(30000);
    const sha256 = createHash('sha256').update(body).digest('hex');
    const start = await fetch(`${servers[0]!.url}/api/v1/projects/default/uploads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'default', path: 'big/raw.bin', size: body.length, sha256 }),
    });
    expect(start.status).toBe(201);
    const ticket = await start.json();
    expect(ticket.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const usage = await (await fetch(`${servers[1]!.url}/api/v1/projects/default/usage`, { headers: auth })).json();
    expect(usage.reserved).toBe(body.length);
    const sent = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body });
    expect(sent.ok).toBe(true);
    const fin = await fetch(`${servers[1]!.url}/api/v1/projects/default/uploads/${ticket.uploadId}/finish`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fin.status).toBe(200);
    expect((await fin.json()).sha256).toBe(sha256);
    const after = await (await fetch(`${servers[0]!.url}/api/v1/projects/default/usage`, { headers: auth })).json();
    expect(after.reserved).toBe(0);
    expect(after.used).toBeGreaterThanOrEqual(body.length);
    const got = await fetch(content(0, 'big/raw.bin'), { headers: { ...auth, range: 'bytes=100-199' } });
    expect(got.status).toBe(206);
    expect(Buffer.from(await got.arrayBuffer()).equals(body.subarray(100, 200))).toBe(true);
  });

  it('answers a download with a redirect to the bucket after checking it here, and Range passes through', async () => {
    // Past the 64 KiB kept in the database by default (decision 0021): only the bucket's blobs have an address there.
    const body = randomBytes(70_000);
    expect((await fetch(content(0, 'redirect/raw.bin'), { method: 'PUT', headers: auth, body })).status).toBe(201);
    const r = await fetch(content(1, 'redirect/raw.bin'), { headers: auth, redirect: 'manual' });
    expect(r.status).toBe(302);
    const location = r.headers.get('location')!;
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/stoa\//);
    expect(r.headers.get('etag')).toBe(`"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`);
    // Following it (the client drops the bearer token on the way to another origin) gives the bytes, or a range of them.
    const whole = await fetch(content(1, 'redirect/raw.bin'), { headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toContain('raw.bin');
    expect(Buffer.from(await whole.arrayBuffer()).equals(body)).toBe(true);
    const part = await fetch(content(0, 'redirect/raw.bin'), { headers: { ...auth, range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(10, 20))).toBe(true);
    // No redirect for someone without the right, for If-Range (the bucket cannot check our ETag), or when asked not to.
    expect((await fetch(content(1, 'redirect/raw.bin'), { redirect: 'manual' })).status).toBe(401);
    const ifRange = await fetch(content(1, 'redirect/raw.bin'), {
      headers: { ...auth, range: 'bytes=0-9', 'if-range': r.headers.get('etag')! },
      redirect: 'manual',
    });
    expect(ifRange.status).toBe(206);
    const fromPage = await fetch(content(1, 'redirect/raw.bin') + '&redirect=false', { headers: auth, redirect: 'manual' });
    expect(fromPage.status).toBe(200);
    expect(Buffer.from(await fromPage.arrayBuffer()).equals(body)).toBe(true);
    const fresh = await fetch(content(1, 'redirect/raw.bin'), { headers: { ...auth, 'if-none-match': r.headers.get('etag')! }, redirect: 'manual' });
    expect(fresh.status).toBe(304);
    await fetch(`${servers[0]!.url}/api/v1/projects/default/files?path=redirect/raw.bin`, { method: 'DELETE', headers: auth });
    // A small file lives in the database: the other server answers with its bytes, not with a redirect.
    const small = randomBytes(4000);
    expect((await fetch(content(0, 'redirect/small.bin'), { method: 'PUT', headers: auth, body: small })).status).toBe(201);
    const direct = await fetch(content(1, 'redirect/small.bin'), { headers: auth, redirect: 'manual' });
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(small)).toBe(true);
  });

  it('holds the quota across servers: parallel uploads that together exceed it cannot all succeed', async () => {
    const used = (await (await fetch(`${servers[0]!.url}/api/v1/projects/default/usage`, { headers: auth })).json()).used as number;
    const size = 19000;
    const fit = Math.floor((100000 - used) / size);
    const tries = fit + 2;
    const results = await Promise.all(
      Array.from({ length: tries }, (_, n) =>
        fetch(content(n % 2, `race/${n}.bin`), { method: 'PUT', headers: auth, body: randomBytes(size) }).then((r) => r.status),
      ),
    );
    expect(results.filter((s) => s === 201).length).toBe(fit);
    expect(results.filter((s) => s === 413).length).toBe(tries - fit);
    const final = await (await fetch(`${servers[1]!.url}/api/v1/projects/default/usage`, { headers: auth })).json();
    expect(final.used).toBe(used + fit * size);
    expect(final.used).toBeLessThanOrEqual(100000);
  });
});
