/**
 * Start-up of the compiled `stoa` command (issue 14, "Start-up budget"), each against its floor in the same run:
 * `stoa --help` and `stoa files ls` (local mode) against `node -e 0`; `stoa mcp` answering `initialize` against
 * the official `@modelcontextprotocol/server-filesystem`; `stoa serve` until it listens, and its RSS once idle.
 * Every measurement is a fresh process; rounds are interleaved so machine load falls on all alike; medians.
 *
 *   npm run build && node --import tsx bench/startup.ts [--rounds 15]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentRssBytes } from './lib/rss.js';
import { fmt, msSince, percentile } from './lib/stats.js';
import { REPO_ROOT } from './lib/stoa-server.js';

const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 15;
const STOA = join(REPO_ROOT, 'apps/cli/bin/stoa.js');
const FS_SERVER = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-startup-'));
const data = join(work, 'data');

/** Wall time of a command run to its end, in ms. */
function timed(args: string[]): number {
  const t = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  return msSince(t);
}

/** Spawns a stdio MCP server and returns the ms until its answer to `initialize`. */
function mcpInitialize(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('"id":1')) {
        const ms = msSince(t);
        child.kill('SIGKILL');
        resolve(ms);
      }
    });
    child.once('exit', (code) => (out.includes('"id":1') ? undefined : reject(new Error(`exited with ${code} before answering`))));
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }) + '\n',
    );
  });
}

/** Spawns `stoa serve` and returns the ms until it prints its address, and its RSS after `idleMs` of idling. */
function serveReady(idleMs: number): Promise<{ ms: number; rss: number }> {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, [STOA, 'serve', '--data', data, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STOA_ADMIN_TOKEN: 'bench_startup_token_0123456789' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (/listening on/.test(out) && !out.includes('\u0000')) {
        out += '\u0000';
        const ms = msSince(t);
        setTimeout(() => {
          const rss = currentRssBytes(child.pid!) ?? 0;
          child.kill('SIGTERM');
          child.once('exit', () => resolve({ ms, rss }));
        }, idleMs);
      }
    });
    child.once('exit', (code) => (out.includes('\u0000') ? undefined : reject(new Error(`serve exited with ${code}: ${out}`))));
  });
}

try {
  // A data folder with an agent, created once (first start migrates; every measured start finds it ready).
  execFileSync(process.execPath, [STOA, '--data', data, 'files', 'ls'], { stdio: 'ignore' });
  const agent = JSON.parse(
    execFileSync(process.execPath, [STOA, '--data', data, '--json', 'agents', 'create', 'Bench', '--files', 'on'], { encoding: 'utf8' }),
  ) as {
    id: string;
  };
  const r = {
    node: [] as number[],
    help: [] as number[],
    ls: [] as number[],
    mcp: [] as number[],
    fsMcp: [] as number[],
    serve: [] as number[],
    rss: [] as number[],
  };
  for (let i = 0; i < ROUNDS; i++) {
    r.node.push(timed(['-e', '0']));
    r.help.push(timed([STOA, '--help']));
    r.ls.push(timed([STOA, '--data', data, 'files', 'ls']));
    r.mcp.push(await mcpInitialize([STOA, '--data', data, '--agent', agent.id, 'mcp']));
    r.fsMcp.push(await mcpInitialize([FS_SERVER, work]));
    if (i < 5) {
      const s = await serveReady(2000);
      r.serve.push(s.ms);
      r.rss.push(s.rss);
    }
  }
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const node = med(r.node);
  const rows = [
    ['`stoa --help`', med(r.help), node, '`node -e 0`', 300],
    ['`stoa files ls` (local mode)', med(r.ls), node, '`node -e 0`', 300],
    ['`stoa mcp` answers `initialize`', med(r.mcp), med(r.fsMcp), 'official filesystem MCP server', 500],
    ['`stoa serve` listening', med(r.serve), node, '`node -e 0`', 1000],
  ] as const;
  console.log(
    `\n${ROUNDS} rounds (serve: 5), medians; load average ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ')}\n`,
  );
  console.log('| what | ms | peer | peer ms | ratio (peer ÷ Stoa) | budget | met |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [what, ms, peer, peerName, budget] of rows)
    console.log(`| ${what} | ${fmt(ms, 0)} | ${peerName} | ${fmt(peer, 0)} | ${fmt(peer / ms, 2)}× | < ${budget} ms | ${ms < budget ? 'yes' : 'no'} |`);
  const rss = med(r.rss) / 1024 / 1024;
  console.log(`| idle \`stoa serve\` RSS | ${fmt(rss, 0)} MB | – | – | – | < 100 MB | ${rss < 100 ? 'yes' : 'no'} |`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
