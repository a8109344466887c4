/**
 * A 1 GB file through Stoa (issue 2, "Benchmarks"): direct upload (uploads.start → PUT /uploads/{id} →
 * uploads.finish, the remote-mode path for files over STOA_DIRECT_UPLOAD_BYTES) and download (GET content into
 * a file, both with curl), against `cp` of the same file on the same disk; the server's peak RSS (VmHWM); then moving the file
 * (POST /files/move) and its latency.
 *
 *   node --import tsx bench/files-large.ts             # 1 GiB
 *   BENCH_LARGE_MB=256 node --import tsx bench/files-large.ts
 *
 * Needs about 5.5× the file size free on the temp disk (source, cp copy, Stoa's blob, the download); checks
 * with `df` first and removes everything afterwards.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpJson, keepAliveAgent } from './lib/http-client.js';
import { currentRssBytes, peakRssBytes } from './lib/rss.js';
import { fmt, msSince, percentile } from './lib/stats.js';
import { startProcess, startStoa } from './lib/stoa-server.js';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_LARGE_MB ?? 1024);
const SIZE = SIZE_MB * MB;
const MOVES = 20;

function freeBytes(dir: string): number {
  // `df -B1 --output=avail DIR` → "Avail\n123456\n"
  const out = execFileSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' });
  return Number(out.trim().split('\n').pop());
}

/** The SHA-256 of a file, hex. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes `size` bytes of distinct 1 MiB blocks, fsynced; returns their sha256. */
async function makeSource(file: string, size: number): Promise<string> {
  const block = randomBytes(MB);
  const hash = createHash('sha256');
  const fh = await open(file, 'w');
  for (let off = 0; off < size; off += MB) {
    block.writeUInt32BE(off / MB, 0);
    const n = Math.min(MB, size - off);
    const chunk = n === MB ? block : block.subarray(0, n);
    hash.update(chunk);
    await fh.write(chunk, 0, n, off);
  }
  await fh.sync();
  await fh.close();
  return hash.digest('hex');
}

/**
 * Transfers with curl (a C client, so the client's own cost is small and equal for every server); fails on
 * HTTP errors. Returns the wall time in ms.
 */
function curl(args: string[]): number {
  return run('curl', ['-sS', '--fail', ...(args.includes('-o') ? [] : ['-o', '/dev/null']), ...args]);
}

/** Runs a command and returns its wall time in ms (hrtime around the child process). */
function run(cmd: string, args: string[]): number {
  const t = process.hrtime.bigint();
  execFileSync(cmd, args, { stdio: 'inherit' });
  return msSince(t);
}

const work = await mkdtemp(join(tmpdir(), 'stoa-bench-large-'));
const data = join(work, 'stoa-data');
const need = Math.ceil(SIZE * 5.5);
const free = freeBytes(tmpdir());
if (free < need) {
  process.stderr.write(`not enough free space in ${tmpdir()}: ${Math.round(free / MB)} MB free, ${Math.round(need / MB)} MB needed\n`);
  await rm(work, { recursive: true, force: true });
  process.exit(1);
}
process.stderr.write(`free in ${tmpdir()}: ${Math.round(free / MB / 1024)} GB; writing a ${SIZE_MB} MB source file…\n`);
const src = join(work, 'source.bin');
const lines: string[] = [];
let server: Awaited<ReturnType<typeof startStoa>> | undefined;
try {
  const sha = await makeSource(src, SIZE);

  // cp, and cp followed by an fsync of the copy (Stoa fsyncs what it stores, so that is the durable equivalent).
  const cpMs = run('cp', [src, join(work, 'cp-copy.bin')]);
  const syncMs = run('sync', [join(work, 'cp-copy.bin')]);
  await rm(join(work, 'cp-copy.bin'));
  const cp2Ms = run('cp', [src, join(work, 'cp-copy2.bin')]);
  await rm(join(work, 'cp-copy2.bin'));
  run('sync', ['-f', work]);

  // A bare node:http + fs server (bench/lib/bare-server.ts: temp file → rename, no hashing, no fsync) with the
  // same client: what any Node HTTP server can do on this machine.
  const bare = await startProcess({ args: ['--import', 'tsx', 'bench/lib/child-server.ts', 'bare', join(work, 'bare')], ready: /listening on (http:\/\/\S+)/ });
  let bareUpMs: number;
  let bareDownMs: number;
  try {
    bareUpMs = curl(['-T', src, `${bare.url}/large.bin`]);
    bareDownMs = curl(['-o', join(work, 'bare-download.bin'), `${bare.url}/large.bin`]);
  } finally {
    await bare.stop();
    await rm(join(work, 'bare'), { recursive: true, force: true });
    await rm(join(work, 'bare-download.bin'), { force: true });
  }

  server = await startStoa({ dataDir: data, env: { STOA_QUOTA_BYTES: String(SIZE * 4) } });
  const s = server;
  const rssIdle = currentRssBytes(s.pid);
  const agent = keepAliveAgent(2);
  const api = `${s.url}/api/v1/projects/default`;
  const auth = { authorization: `Bearer ${s.token}` };
  const json = { ...auth, 'content-type': 'application/json' };

  let t = process.hrtime.bigint();
  const ticket = await httpJson<{ uploadId: string; url: string | null }>(`${api}/uploads`, {
    method: 'POST',
    agent,
    headers: json,
    body: Buffer.from(JSON.stringify({ path: 'big/large.bin', size: SIZE })),
  });
  if (ticket.url !== null) throw new Error('expected a server-side upload (url: null) on the local disk store');
  const startMs = msSince(t);
  const sendMs = curl([
    '-T',
    src,
    '-H',
    `authorization: Bearer ${s.token}`,
    '-H',
    'content-type: application/octet-stream',
    `${api}/uploads/${ticket.uploadId}`,
  ]);
  t = process.hrtime.bigint();
  const file = await httpJson<{ sha256: string; size: number }>(`${api}/uploads/${ticket.uploadId}/finish`, {
    method: 'POST',
    agent,
    headers: json,
    body: Buffer.from('{}'),
  });
  const finishMs = msSince(t);
  const uploadMs = startMs + sendMs + finishMs;
  if (file.sha256 !== sha || file.size !== SIZE) throw new Error(`uploaded file differs: ${file.size} bytes, sha256 ${file.sha256}`);
  const rssAfterUpload = peakRssBytes(s.pid);

  const dst = join(work, 'download.bin');
  const headers = join(work, 'download.headers');
  const downloadMs = curl([
    '-D',
    headers,
    '-o',
    dst,
    '-H',
    `authorization: Bearer ${s.token}`,
    `${api}/files/content?path=${encodeURIComponent('big/large.bin')}`,
  ]);
  const etag = /^etag:\s*(\S+)/im.exec(await readFile(headers, 'utf8'))?.[1];
  // The ETag is the first 128 bits of the content's SHA-256 (openapi.ts); the bytes are checked whole too.
  if ((await stat(dst)).size !== SIZE || etag !== `"${sha.slice(0, 32)}"`) throw new Error(`download failed: etag ${etag}`);
  if ((await sha256Of(dst)) !== sha) throw new Error('download failed: the bytes differ from the upload');
  await rm(dst);

  // Moves: the first one, then back and forth for a distribution.
  const moves: number[] = [];
  const paths = ['big/large.bin', 'moved/elsewhere/large-renamed.bin'];
  for (let i = 0; i < MOVES; i++) {
    t = process.hrtime.bigint();
    await httpJson(`${api}/files/move`, {
      method: 'POST',
      agent,
      headers: json,
      body: Buffer.from(JSON.stringify({ from: paths[i % 2], to: paths[(i + 1) % 2] })),
    });
    moves.push(msSince(t));
  }
  const peak = peakRssBytes(s.pid);
  agent.destroy();

  const tp = (ms: number): string => `${fmt(SIZE / MB / (ms / 1000), 0)} MB/s`;
  const sorted = [...moves].sort((a, b) => a - b);
  const cpBest = Math.min(cpMs, cp2Ms);
  lines.push(`File: ${SIZE_MB} MB (distinct 1 MiB blocks), on ${tmpdir()} (same disk for cp and for Stoa's data folder).`, '');
  lines.push('| step | time | throughput | vs cp | vs cp + sync |', '|---|---|---|---|---|');
  lines.push(`| cp (best of 2) | ${fmt(cpBest / 1000, 2)} s | ${tp(cpBest)} | 1.00× | |`);
  lines.push(`| cp + sync of the copy | ${fmt((cpMs + syncMs) / 1000, 2)} s | ${tp(cpMs + syncMs)} | | 1.00× |`);
  lines.push(
    `| bare node:http server, upload (no hash, no fsync) | ${fmt(bareUpMs / 1000, 2)} s | ${tp(bareUpMs)} | ${fmt(cpBest / bareUpMs, 2)}× | ${fmt((cpMs + syncMs) / bareUpMs, 2)}× |`,
  );
  lines.push(
    `| bare node:http server, download → file | ${fmt(bareDownMs / 1000, 2)} s | ${tp(bareDownMs)} | ${fmt(cpBest / bareDownMs, 2)}× | ${fmt((cpMs + syncMs) / bareDownMs, 2)}× |`,
  );
  lines.push(
    `| Stoa upload, total (start + send + finish) | ${fmt(uploadMs / 1000, 2)} s | ${tp(uploadMs)} | ${fmt(cpBest / uploadMs, 2)}× | ${fmt((cpMs + syncMs) / uploadMs, 2)}× |`,
  );
  lines.push(`| — uploads.start | ${fmt(startMs, 1)} ms | | | |`);
  lines.push(
    `| — PUT /uploads/{id} (bytes to staging, fsync) | ${fmt(sendMs / 1000, 2)} s | ${tp(sendMs)} | ${fmt(cpBest / sendMs, 2)}× | ${fmt((cpMs + syncMs) / sendMs, 2)}× |`,
  );
  lines.push(`| — uploads.finish (re-hash, commit) | ${fmt(finishMs / 1000, 2)} s | | | |`);
  lines.push(
    `| Stoa download (GET content → file) | ${fmt(downloadMs / 1000, 2)} s | ${tp(downloadMs)} | ${fmt(cpBest / downloadMs, 2)}× | ${fmt((cpMs + syncMs) / downloadMs, 2)}× |`,
  );
  lines.push(
    '',
    `Server RSS: ${Math.round((rssIdle ?? 0) / MB)} MB after start; peak (VmHWM) ${Math.round((rssAfterUpload ?? 0) / MB)} MB after the upload, ${Math.round((peak ?? 0) / MB)} MB at the end.`,
  );
  lines.push(
    '',
    `Move of the ${SIZE_MB} MB file (POST /files/move, ${MOVES} moves back and forth): first ${fmt(moves[0]!, 1)} ms, p50 ${fmt(percentile(sorted, 50), 1)} ms, p99/max ${fmt(percentile(sorted, 99), 1)} ms.`,
  );
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
process.stdout.write(lines.join('\n') + '\n');
