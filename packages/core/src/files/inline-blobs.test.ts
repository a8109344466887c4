import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore, createTieredBlobStore, sha256Hex } from '@stoa/blob';
import { collect, listAll, runBlobContract } from '@stoa/blob/contract';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { loadConfig } from '../config.js';
import { assemblePlatform, openPlatform } from '../open-platform.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import { bootstrap } from '../projects/bootstrap.js';
import { putFile } from './put-file.js';
import { openFile } from './read-file.js';
import { sweepBlobs } from './sweeper.js';
import { runDoctor } from './doctor.js';
import { readText, storeViolations } from './test-invariants.js';

const KiB = 1024;

for (const kind of testDbKinds()) {
  runBlobContract(`tiered (database + fs) on ${kind}`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'stoa-tiered-'));
    const { db, cleanup } = await createTestDb(kind);
    const store = createTieredBlobStore({ store: createFsBlobStore({ root }), table: db.inlineBlobs, maxInlineBytes: 64 * KiB });
    const dir = (d: string) => (existsSync(join(root, d)) ? readdirSync(join(root, d)).map((n) => `${d}/${n}`) : []);
    return {
      store,
      cleanup: async () => {
        await cleanup();
        rmSync(root, { recursive: true, force: true });
      },
      leftovers: async () => [...dir('.tmp'), ...dir('.staging')],
    };
  });
}

describe.each(testDbKinds())('small blobs in the database on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  /** Blob files on disk (not the ones in the database). */
  const onDisk = (key: string) => existsSync(join(t.dataDir, 'blobs', key.slice(0, 2), key));
  const inTable = async (key: string) => (await t.platform.db.inlineBlobs.size(key)) !== null;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    // The tier as STOA_INLINE_BLOB_BYTES=65536, the default, wires it (assemblePlatform).
    t.platform.config = { ...t.platform.config, inlineBlobBytes: 64 * KiB };
    t.platform.blobs = createTieredBlobStore({ store: t.platform.blobs, table: t.platform.db.inlineBlobs, maxInlineBytes: 64 * KiB });
    ctx = await t.admin();
  }, 60_000);
  afterAll(() => t.cleanup());

  it('keeps a file up to 64 KiB in the database and a larger one on disk, both read back whole and by range', async () => {
    const small = Buffer.alloc(64 * KiB, 'a');
    const big = Buffer.alloc(64 * KiB + 1, 'b');
    const s = await putFile(ctx, { path: 'tier/small.txt', source: small });
    const b = await putFile(ctx, { path: 'tier/big.txt', source: big });
    expect([await inTable(s.file.sha256), onDisk(s.file.sha256)]).toEqual([true, false]);
    expect([await inTable(b.file.sha256), onDisk(b.file.sha256)]).toEqual([false, true]);
    expect(await readText(ctx, 'tier/small.txt')).toBe(small.toString());
    expect(await readText(ctx, 'tier/big.txt')).toBe(big.toString());
    const part = await openFile(ctx, 'tier/small.txt', { range: { start: 10, end: 19 } });
    expect((await collect(part.stream as never)).toString()).toBe('a'.repeat(10));
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('reads a blob written to disk before (or by a store with a lower threshold), and lists a blob kept in both places once', async () => {
    const disk = createFsBlobStore({ root: join(t.dataDir, 'blobs') });
    const old = await disk.put('written before small blobs moved into the database');
    expect(await t.platform.blobs.read(old.key)).toEqual(Buffer.from('written before small blobs moved into the database'));
    // The previous test's files are indexed a moment after their commit: a drain's transaction still open would send
    // this put to the disk (correct, as in the next test, but not what this one asks about).
    await t.platform.outbox.idle();
    const again = await t.platform.blobs.put('written before small blobs moved into the database');
    expect(again.key).toBe(old.key);
    expect([await inTable(old.key), onDisk(old.key)]).toEqual([true, true]);
    expect((await listAll(t.platform.blobs)).filter((k) => k === old.key)).toHaveLength(1);
    // Unreferenced: the sweep (after its grace) removes both copies.
    await sweepBlobs(t.platform, { graceMs: 3600_000 }); // adopts it: its grace starts now
    await sweepBlobs(t.platform, { graceMs: 0 });
    expect([await inTable(old.key), onDisk(old.key)]).toEqual([false, false]);
    expect(await t.platform.blobs.stat(old.key)).toBeNull();
  });

  it('the sweep keeps small content a file references and collects what nothing references; the doctor sees a lost one', async () => {
    const kept = await putFile(ctx, { path: 'tier/kept.md', source: 'kept content' });
    await t.platform.outbox.idle(); // a drain's transaction still open would send the put to the disk (correct, not tested here)
    const orphan = await t.platform.blobs.put('bytes of a write that never committed');
    expect(await inTable(orphan.key)).toBe(true);
    await sweepBlobs(t.platform, { graceMs: 3600_000 });
    await sweepBlobs(t.platform, { graceMs: 0 });
    expect(await inTable(orphan.key)).toBe(false);
    expect(await readText(ctx, 'tier/kept.md')).toBe('kept content');

    const admin = await localAdminPrincipal(t.platform);
    expect((await runDoctor(t.platform, admin)).findings).toEqual([]);
    await t.platform.db.inlineBlobs.delete(kept.file.sha256);
    const found = await runDoctor(t.platform, admin);
    expect(found.findings).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'missing_blob' })]));
    await putFile(ctx, { path: 'tier/kept.md', source: 'kept content' }); // the same bytes again heal it
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('64 KiB by default; STOA_INLINE_BLOB_BYTES=0 keeps every blob in the store', async () => {
    expect(loadConfig({ dataDir: t.dataDir, env: { STOA_INLINE_BLOB_BYTES: '65536' } }).inlineBlobBytes).toBe(64 * KiB);
    expect(loadConfig({ dataDir: t.dataDir, env: {} }).inlineBlobBytes).toBe(64 * KiB);
    expect(loadConfig({ dataDir: t.dataDir, env: { STOA_INLINE_BLOB_BYTES: '0' } }).inlineBlobBytes).toBe(0);
    expect(() => loadConfig({ dataDir: t.dataDir, env: { STOA_INLINE_BLOB_BYTES: String(1 << 30) } })).toThrow(/at most/);
    const config = { ...t.platform.config, inlineBlobBytes: 0 };
    const off = assemblePlatform({ db: t.platform.db, blobs: createFsBlobStore({ root: join(t.dataDir, 'blobs') }), config });
    const r = await off.blobs.put('kept as a file, as before');
    expect([await inTable(r.key), onDisk(r.key)]).toEqual([false, true]);
  });

  it("an inline blob has no presigned download (the server serves its bytes); a large one keeps the bucket's", async () => {
    const fs = createFsBlobStore({ root: join(t.dataDir, 'blobs') });
    const bucket = { ...fs, presignGet: async (key: string) => `https://bucket.example/${key}?signed` };
    const store = createTieredBlobStore({ store: bucket, table: t.platform.db.inlineBlobs, maxInlineBytes: 64 * KiB });
    const small = await store.put('small');
    const big = await store.put(Buffer.alloc(64 * KiB + 1, 'z'));
    const as = { filename: 'a.txt', contentType: 'text/plain' };
    expect(await store.presignGet(small.key, 60, as)).toBeNull();
    expect(await store.presignGet(big.key, 60, as)).toBe(`https://bucket.example/${big.key}?signed`);
  });
});

describe('small blobs in the database: a crash', () => {
  it('a server killed while writing small files leaves every committed version with its bytes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stoa-inline-crash-'));
    try {
      const url = (p: string) => pathToFileURL(join(import.meta.dirname, p)).href;
      // The child writes small files as fast as it can and reports each acknowledged write; it is killed midway.
      const script = `
        const { loadConfig } = await import(${JSON.stringify(url('../config.ts'))});
        const { openPlatform } = await import(${JSON.stringify(url('../open-platform.ts'))});
        const { bootstrap } = await import(${JSON.stringify(url('../projects/bootstrap.ts'))});
        const { contextFor, localAdminPrincipal } = await import(${JSON.stringify(url('../context.ts'))});
        const { putFile } = await import(${JSON.stringify(url('./put-file.ts'))});
        const platform = await openPlatform(loadConfig({ dataDir: ${JSON.stringify(dataDir)}, env: { STOA_INLINE_BLOB_BYTES: '65536' } }));
        await bootstrap(platform);
        const ctx = await contextFor(platform, await localAdminPrincipal(platform), {});
        for (let i = 0; ; i++) {
          await putFile(ctx, { path: 'crash/f' + (i % 50) + '.txt', source: 'content ' + i + ' '.repeat(i % 4000) });
          process.stdout.write('ok ' + i + '\\n');
        }`;
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const child = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let acked = -1;
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          const m = [...d.toString().matchAll(/ok (\d+)/g)].at(-1);
          if (m) acked = Number(m[1]);
          if (acked >= 150) resolve();
        });
        child.on('exit', () => reject(new Error(`the writer ended early: ${err}`)));
      });
      child.kill('SIGKILL');
      await once(child, 'exit');

      const platform = await openPlatform(loadConfig({ dataDir, env: { STOA_INLINE_BLOB_BYTES: '65536' } }));
      try {
        await bootstrap(platform);
        const ctx = await contextFor(platform, await localAdminPrincipal(platform), {});
        expect(await storeViolations(ctx)).toEqual([]);
        const versions = await platform.db.kysely.selectFrom('file_versions').select(['blob_key', 'sha256', 'size']).execute();
        expect(await platform.db.kysely.selectFrom('files').select('id').execute()).toHaveLength(50); // every acknowledged path
        expect(versions.length).toBeGreaterThanOrEqual(50);
        for (const v of versions) expect(sha256Hex(await platform.blobs.read(v.blob_key))).toBe(v.sha256);
        // None of them went to the disk: they are small.
        expect(
          existsSync(join(dataDir, 'blobs'))
            ? readdirSync(join(dataDir, 'blobs')).filter((n) => !n.startsWith('.') && readdirSync(join(dataDir, 'blobs', n)).length > 0)
            : [],
        ).toEqual([]);
      } finally {
        await platform.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
