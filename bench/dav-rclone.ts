/**
 * WebDAV with a real client (issue 10, "Benchmark"): `rclone copy` of 1,000 small files and of one large file
 * into Stoa's `/dav`, against the same copy into a local folder and into `rclone serve webdav` (a WebDAV server
 * on the same disk, no versions, no database); then PROPFIND depth 1 on a 20,000-file folder on both servers
 * (time and the server's peak RSS).
 *
 *   node --import tsx bench/dav-rclone.ts
 *   BENCH_DAV_LARGE_MB=256 BENCH_DAV_LIST=5000 node --import tsx bench/dav-rclone.ts
 *
 * Needs rclone and curl, and about 4× the large file's size free on the temp disk; removes everything after.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { httpRequest, keepAliveAgent } from './lib/http-client.js';
import { runConcurrent } from './lib/runner.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssBytes, currentRssBytes } from './lib/rss.js';
import { fmt, msSince } from './lib/stats.js';
import { startStoa, type StartedServer } from './lib/stoa-server.js';

const MB = 1024 * 1024;
const SMALL = Number(process.env.BENCH_DAV_SMALL ?? 1000);
const SMALL_BYTES = 4096;
const LARGE_MB = Number(process.env.BENCH_DAV_LARGE_MB ?? 1024);
const LIST = Number(process.env.BENCH_DAV_LIST ?? 20_000);
const ROUNDS = Number(process.env.BENCH_DAV_ROUNDS ?? 2);

/** Runs a command to its end and returns its wall time in ms. */
function timed(cmd: string, args: string[], env?: NodeJS.ProcessEnv): number {
  const t = process.hrtime.bigint();
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  return msSince(t);
}

/** `rclone serve webdav DIR` on a free port, as the peer WebDAV server. */
async function rcloneServe(dir: string, extra: string[] = []): Promise<StartedServer> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn('rclone', ['serve', 'webdav', dir, '--addr', `127.0.0.1:${port}`, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url, { method: 'OPTIONS' }).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    pid: child.pid!,
    child,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** rclone's environment for a WebDAV remote named `r` (no config file). */
function remote(url: string, vendor: string, auth: { bearer?: string }): NodeJS.ProcessEnv {
  return {
    RCLONE_CONFIG: '/dev/null',
    RCLONE_CONFIG_R_TYPE: 'webdav',
    RCLONE_CONFIG_R_URL: url,
    RCLONE_CONFIG_R_VENDOR: vendor,
    RCLONE_CONFIG_R_NEXTCLOUD_CHUNK_SIZE: '0',
    ...(auth.bearer ? { RCLONE_CONFIG_R_BEARER_TOKEN: auth.bearer } : {}),
  };
}

async function writeSmallFiles(dir: string, n: number, bytes: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < n; i++) await writeFile(join(dir, `f${String(i).padStart(5, '0')}.txt`), randomBytes(bytes));
}

async function writeLarge(file: string, size: number): Promise<void> {
  const block = randomBytes(MB);
  const fh = await open(file, 'w');
  for (let off = 0; off < size; off += MB) {
    block.writeUInt32BE(off / MB, 0);
    await fh.write(block, 0, Math.min(MB, size - off), off);
  }
  await fh.close();
}

/** PROPFIND depth 1 of `url` with curl: wall ms and response bytes. */
function propfind(url: string, headers: string[]): { ms: number; bytes: number } {
  const t = process.hrtime.bigint();
  const out = execFileSync('curl', ['-sS', '--fail', '-X', 'PROPFIND', '-H', 'Depth: 1', ...headers.flatMap((h) => ['-H', h]), url], {
    maxBuffer: 1024 * MB,
  });
  return { ms: msSince(t), bytes: out.length };
}

const work = await mkdtemp(join(tmpdir(), 'stoa-bench-dav-'));
const rows: string[] = [];
try {
  process.stderr.write(`writing ${SMALL} small files, a ${LARGE_MB} MB file and a ${LIST}-file folder…\n`);
  const small = join(work, 'small');
  await writeSmallFiles(small, SMALL, SMALL_BYTES);
  const large = join(work, 'large');
  await mkdir(large);
  await writeLarge(join(large, 'large.bin'), LARGE_MB * MB);
  const list = join(work, 'list');
  await writeSmallFiles(list, LIST, 16);

  const stoa = await startStoa({ dataDir: join(work, 'stoa-data'), env: { STOA_QUOTA_BYTES: String(LARGE_MB * MB * 4 + 1024 * MB) } });
  const peerDir = join(work, 'peer');
  await mkdir(peerDir);
  let peer = await rcloneServe(peerDir);
  const stoaEnv = remote(`${stoa.url}/dav`, 'nextcloud', { bearer: stoa.token });
  const peerEnv = remote(peer.url, 'other', {});
  const best = { local: { small: Infinity, large: Infinity }, peer: { small: Infinity, large: Infinity }, stoa: { small: Infinity, large: Infinity } };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved so that load on the machine falls on every target alike; each round copies into fresh folders.
      const into = `r${round}`;
      best.local.small = Math.min(best.local.small, timed('rclone', ['copy', small, join(work, 'local', into, 'small')], { RCLONE_CONFIG: '/dev/null' }));
      best.peer.small = Math.min(best.peer.small, timed('rclone', ['copy', small, `r:${into}/small`], peerEnv));
      best.stoa.small = Math.min(best.stoa.small, timed('rclone', ['copy', small, `r:${into}/small`], stoaEnv));
      best.local.large = Math.min(best.local.large, timed('rclone', ['copy', large, join(work, 'local', into, 'large')], { RCLONE_CONFIG: '/dev/null' }));
      await rm(join(work, 'local', into), { recursive: true, force: true });
      best.peer.large = Math.min(best.peer.large, timed('rclone', ['copy', large, `r:${into}/large`], peerEnv));
      await rm(join(peerDir, into), { recursive: true, force: true });
      best.stoa.large = Math.min(best.stoa.large, timed('rclone', ['copy', large, `r:${into}/large`], stoaEnv));
      // Deleting the folder frees Stoa's quota; its blobs go with the sweeper, as in production.
      timed('rclone', ['purge', `r:${into}`], stoaEnv);
    }
    const stoaPeakAfterCopies = peakRssBytes(stoa.pid);

    // The listing: the same files in both servers (rclone's per-file pace would take many minutes here, so they go
    // in through Stoa's HTTP API, 8 at a time, and straight into the peer's folder), then PROPFIND depth 1.
    const agent = keepAliveAgent(8);
    await runConcurrent({
      count: LIST,
      concurrency: 8,
      maxMs: 30 * 60_000,
      task: async (i) => {
        const name = `f${String(i).padStart(5, '0')}.txt`;
        const r = await httpRequest(`${stoa.url}/api/v1/projects/default/files/content?path=${encodeURIComponent(`list/${name}`)}`, {
          method: 'PUT',
          agent,
          headers: { authorization: `Bearer ${stoa.token}`, 'content-type': 'application/octet-stream' },
          body: await readFile(join(list, name)),
        });
        if (r.status >= 300) throw new Error(`PUT ${name}: ${r.status}`);
      },
    });
    agent.destroy();
    await cp(list, join(peerDir, 'list'), { recursive: true });
    // The peer started before its folder filled; a fresh one reads it (and caches it, as it does by default).
    await peer.stop();
    peer = await rcloneServe(peerDir);
    const auth = `authorization: Bearer ${stoa.token}`;
    const rssBefore = currentRssBytes(stoa.pid);
    let stoaList = { ms: Infinity, bytes: 0 };
    let peerList = { ms: Infinity, bytes: 0 };
    for (let i = 0; i < 3; i++) {
      const s = propfind(`${stoa.url}/dav/list/`, [auth]);
      if (s.ms < stoaList.ms) stoaList = s;
      const p = propfind(`${peer.url}/list/`, []);
      if (p.ms < peerList.ms) peerList = p;
    }
    const stoaPeak = peakRssBytes(stoa.pid);
    const peerPeak = peakRssBytes(peer.pid);

    const mbps = (bytes: number, ms: number) => fmt(bytes / MB / (ms / 1000));
    const filesPerS = (ms: number) => fmt(SMALL / (ms / 1000), 0);
    rows.push(
      `| what | local folder | rclone serve webdav | Stoa /dav | Stoa ÷ local | Stoa ÷ rclone serve |`,
      `| --- | --- | --- | --- | --- | --- |`,
      `| rclone copy ${SMALL} × 4 KB (files/s) | ${filesPerS(best.local.small)} | ${filesPerS(best.peer.small)} | ${filesPerS(best.stoa.small)} | ${fmt(best.local.small / best.stoa.small, 2)}× | ${fmt(best.peer.small / best.stoa.small, 2)}× |`,
      `| rclone copy 1 × ${LARGE_MB} MB (MB/s) | ${mbps(LARGE_MB * MB, best.local.large)} | ${mbps(LARGE_MB * MB, best.peer.large)} | ${mbps(LARGE_MB * MB, best.stoa.large)} | ${fmt(best.local.large / best.stoa.large, 2)}× | ${fmt(best.peer.large / best.stoa.large, 2)}× |`,
      `| PROPFIND depth 1, ${LIST} files (ms, best of 3) | – | ${fmt(peerList.ms, 0)} | ${fmt(stoaList.ms, 0)} | – | ${fmt(peerList.ms / stoaList.ms, 2)}× |`,
      `| response size (MB) | – | ${fmt(peerList.bytes / MB)} | ${fmt(stoaList.bytes / MB)} | – | – |`,
      `| server peak RSS (MB) | – | ${fmt((peerPeak ?? 0) / MB)} | ${fmt((stoaPeak ?? 0) / MB)} (${fmt((stoaPeakAfterCopies ?? 0) / MB)} after the copies, ${fmt((rssBefore ?? 0) / MB)} before listing) | – | – |`,
    );
  } finally {
    await stoa.stop();
    await peer.stop();
  }
  process.stdout.write(`\n${rows.join('\n')}\n\nload average at the end: ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim()}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
