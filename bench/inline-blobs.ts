/**
 * Small blobs in the database (decision 0021): what 1,000 small files cost in database size and in write time,
 * with the inline tier on (STOA_INLINE_BLOB_BYTES=65536) and off (0: every blob a file), side by side in one run,
 * the two data folders taking turns file by file, in-process (`putFile`, one write at a time, as an agent
 * writes), on SQLite.
 *
 *   node --import tsx bench/inline-blobs.ts
 *   BENCH_INLINE_N=300 node --import tsx bench/inline-blobs.ts   # quicker
 *   BENCH_INLINE_SIZES=4096,16384,32768,65536 node --import tsx bench/inline-blobs.ts
 *
 * Prints, per size and tier: the growth of the database (main file + WAL after a checkpoint) and of the blob
 * folder per 1,000 files, and the p50 / p99 of one `putFile` and of one read back.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { bootstrap, contextFor, loadConfig, localAdminPrincipal, openPlatform, putFile, openFile } from '@stoa/core/testing';
import { sql } from '@stoa/db';
import { fmt, summarize } from './lib/stats.js';

const N = Number(process.env.BENCH_INLINE_N ?? 1000);

function sizeOf(path: string): number {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return st.size;
    return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

interface Side {
  name: string;
  inline: string;
  put: number[];
  get: number[];
  dbBytes: number;
  blobBytes: number;
}

/** One data folder and platform per side, open at once: the sides take turns file by file. */
async function open(side: Side) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stoa-bench-inline-'));
  const platform = await openPlatform(loadConfig({ dataDir, env: { STOA_INLINE_BLOB_BYTES: side.inline } }));
  await bootstrap(platform);
  const ctx = await contextFor(platform, await localAdminPrincipal(platform), {});
  const checkpoint = () => sql`pragma wal_checkpoint(truncate)`.execute(platform.db.kysely);
  const bytes = () => ({ db: sizeOf(join(dataDir, 'stoa.db')) + sizeOf(join(dataDir, 'stoa.db-wal')), blobs: sizeOf(join(dataDir, 'blobs')) });
  return {
    side,
    ctx,
    checkpoint,
    bytes,
    close: async () => {
      await platform.outbox.idle();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function writeAndRead(o: Awaited<ReturnType<typeof open>>, path: string, body: Buffer, record: boolean): Promise<void> {
  const t0 = performance.now();
  await putFile(o.ctx, { path, source: body });
  const t1 = performance.now();
  const f = await openFile(o.ctx, path);
  for await (const _ of f.stream as Readable);
  if (record) {
    o.side.put.push(t1 - t0);
    o.side.get.push(performance.now() - t1);
  }
}

async function main(): Promise<void> {
  console.log(`\nSmall blobs in the database: ${N} files per size and side, the sides taking turns file by file, SQLite, files under ${tmpdir()}\n`);
  console.log('| size | blobs | database growth per 1,000 files | blob folder growth per 1,000 files | put p50 ms | put p99 ms | read p50 ms | read p99 ms |');
  console.log('|---|---|---|---|---|---|---|---|');
  const ratios: string[] = [];
  for (const size of (process.env.BENCH_INLINE_SIZES ?? '4096,65536').split(',').map(Number)) {
    const sides: Side[] = [
      { name: 'in the database', inline: '65536', put: [], get: [], dbBytes: 0, blobBytes: 0 },
      { name: 'files (inline off)', inline: '0', put: [], get: [], dbBytes: 0, blobBytes: 0 },
    ];
    const opened = await Promise.all(sides.map(open));
    for (let i = 0; i < 20; i++) for (const o of opened) await writeAndRead(o, `warm/${i}.bin`, randomBytes(size), false);
    const before = [];
    for (const o of opened) {
      await o.checkpoint();
      before.push(o.bytes());
    }
    for (let i = 0; i < N; i++) for (const o of i % 2 === 0 ? opened : [...opened].reverse()) await writeAndRead(o, `run/${i}.bin`, randomBytes(size), true);
    for (const [j, o] of opened.entries()) {
      await o.checkpoint();
      const after = o.bytes();
      o.side.dbBytes = after.db - before[j]!.db;
      o.side.blobBytes = after.blobs - before[j]!.blobs;
      await o.close();
    }
    for (const s of sides) {
      const p = summarize(s.put, 1);
      const g = summarize(s.get, 1);
      const k = 1000 / N;
      console.log(
        `| ${size / 1024} KB | ${s.name} | ${fmt((s.dbBytes * k) / 1048576)} MiB | ${fmt((s.blobBytes * k) / 1048576)} MiB | ${fmt(p.p50)} | ${fmt(p.p99)} | ${fmt(g.p50)} | ${fmt(g.p99)} |`,
      );
    }
    const [a, b] = sides.map((s) => summarize(s.put, 1));
    ratios.push(`${size / 1024} KB: put p50 in the database ÷ files ${(a!.p50 / b!.p50).toFixed(2)}×, mean ${(a!.mean / b!.mean).toFixed(2)}×`);
  }
  console.log(`\n${ratios.join('; ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
