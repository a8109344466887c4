/**
 * Start-up of the compiled `stoa` command (issue 14, "Start-up budget"), each against its floor in the same run:
 * `stoa --help` and `stoa files ls` (local mode) against `node -e 0`; `stoa files ls` against a running server
 * (remote mode, a token) against `node -e 0` and against a script that makes the same one request (with fetch, and
 * with node:http); `stoa mcp` answering `initialize` against the official `@modelcontextprotocol/server-filesystem`;
 * `stoa serve` until it listens, and its RSS once idle (`--idle S` seconds, 2 by default).
 * Every measurement is a fresh process; rounds are interleaved so machine load falls on all alike; medians.
 *
 *   npm run build && node --import tsx bench/startup.ts [--rounds 15] [--idle 12] [--against DIR]
 *
 * `--against DIR` runs the same commands of another built checkout (e.g. a `git worktree` of main) by turns with
 * this one, against the same server, and prints a second table with the two side by side.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reportAims } from './lib/aims.js';
import { currentRssBytes } from './lib/rss.js';
import { fmt, msSince, percentile } from './lib/stats.js';
import { REPO_ROOT, startStoa } from './lib/stoa-server.js';

const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 15;
const idleAt = process.argv.indexOf('--idle');
const IDLE_MS = (idleAt >= 0 ? Number(process.argv[idleAt + 1]) : 2) * 1000;
const againstAt = process.argv.indexOf('--against');
const AGAINST = againstAt >= 0 ? resolve(process.argv[againstAt + 1]!) : undefined;
const STOA = join(REPO_ROOT, 'apps/cli/bin/stoa.js');
const OTHER_STOA = AGAINST ? join(AGAINST, 'apps/cli/bin/stoa.js') : undefined;
const FS_SERVER = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const work = mkdtempSync(join(tmpdir(), 'stoa-bench-startup-'));
const data = join(work, 'data');

/** Wall time of a command run to its end, in ms. */
function timed(args: string[], env: Record<string, string> = {}): number {
  const t = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', ...env } });
  return msSince(t);
}

/** The one request `stoa files ls` makes in remote mode, as a bare script: with fetch, or with node:http. */
const ONE_REQUEST = {
  fetch:
    "const r = await fetch(process.env.STOA_URL + '/api/v1/projects/default/files?prefix=&limit=5000', { headers: { authorization: 'Bearer ' + process.env.STOA_TOKEN } });\n" +
    'process.stdout.write(await r.text());\n',
  http:
    "import { get } from 'node:http';\n" +
    "get(process.env.STOA_URL + '/api/v1/projects/default/files?prefix=&limit=5000', { headers: { authorization: 'Bearer ' + process.env.STOA_TOKEN } }, (res) => res.pipe(process.stdout));\n",
};

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
function serveReady(idleMs: number, stoa = STOA): Promise<{ ms: number; rss: number }> {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, [stoa, 'serve', '--data', data, '--port', '0'], {
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

const server = await startStoa({ dataDir: join(work, 'remote-data') });
const remote = { STOA_URL: server.url, STOA_TOKEN: server.token };
for (let i = 0; i < 20; i++)
  await fetch(`${server.url}/api/v1/projects/default/files/content?path=report-${String(i).padStart(2, '0')}.md`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${server.token}` },
    body: `# Report ${i}\n`,
  }).then((r) => r.arrayBuffer());
const fetchScript = join(work, 'one-fetch.mjs');
const httpScript = join(work, 'one-http.mjs');
writeFileSync(fetchScript, ONE_REQUEST.fetch);
writeFileSync(httpScript, ONE_REQUEST.http);

try {
  // A data folder with an agent, created once (first start migrates; every measured start finds it ready).
  execFileSync(process.execPath, [STOA, '--data', data, 'files', 'ls'], { stdio: 'ignore' });
  const agent = JSON.parse(
    execFileSync(process.execPath, [STOA, '--data', data, '--json', 'agents', 'create', 'Bench', '--files', 'on'], { encoding: 'utf8' }),
  ) as {
    id: string;
  };
  const stoas = OTHER_STOA ? [STOA, OTHER_STOA] : [STOA];
  const r = {
    node: [] as number[],
    fetch: [] as number[],
    http: [] as number[],
    mcp: [] as number[],
    fsMcp: [] as number[],
    // Per checkout (this one first).
    help: stoas.map(() => [] as number[]),
    ls: stoas.map(() => [] as number[]),
    lsRemote: stoas.map(() => [] as number[]),
    serve: stoas.map(() => [] as number[]),
    rss: stoas.map(() => [] as number[]),
  };
  for (let i = 0; i < ROUNDS; i++) {
    r.node.push(timed(['-e', '0']));
    r.fetch.push(timed([fetchScript], remote));
    r.http.push(timed([httpScript], remote));
    // The checkouts take turns, in an order that turns round every round.
    const order = [...stoas.entries()];
    for (const [n, stoa] of i % 2 ? order.reverse() : order) {
      r.help[n]!.push(timed([stoa, '--help']));
      r.ls[n]!.push(timed([stoa, '--data', data, 'files', 'ls']));
      r.lsRemote[n]!.push(timed([stoa, 'files', 'ls'], remote));
    }
    r.mcp.push(await mcpInitialize([STOA, '--data', data, '--agent', agent.id, 'mcp']));
    r.fsMcp.push(await mcpInitialize([FS_SERVER, work]));
    if (i < 5) {
      for (const [n, stoa] of i % 2 ? order.reverse() : order) {
        const s = await serveReady(IDLE_MS, stoa);
        r.serve[n]!.push(s.ms);
        r.rss[n]!.push(s.rss);
      }
    }
  }
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const node = med(r.node);
  const rows = [
    ['`stoa --help`', med(r.help[0]!), node, '`node -e 0`', 300],
    ['`stoa files ls` (local mode)', med(r.ls[0]!), node, '`node -e 0`', 300],
    ['`stoa files ls` (remote mode)', med(r.lsRemote[0]!), node, '`node -e 0`', 300],
    ['`stoa files ls` (remote mode)', med(r.lsRemote[0]!), med(r.fetch), 'one `fetch` of the same listing', 300],
    ['`stoa files ls` (remote mode)', med(r.lsRemote[0]!), med(r.http), 'one `node:http` GET of the same listing', 300],
    ['`stoa mcp` answers `initialize`', med(r.mcp), med(r.fsMcp), 'official filesystem MCP server', 500],
    ['`stoa serve` listening', med(r.serve[0]!), node, '`node -e 0`', 1000],
  ] as const;
  const load = () => execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ');
  console.log(`\n${ROUNDS} rounds (serve: 5, idle ${IDLE_MS / 1000} s), medians; load average ${load()}\n`);
  console.log('| what | ms | peer | peer ms | ratio (peer ÷ Stoa) | budget | met |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [what, ms, peer, peerName, budget] of rows)
    console.log(`| ${what} | ${fmt(ms, 0)} | ${peerName} | ${fmt(peer, 0)} | ${fmt(peer / ms, 2)}× | < ${budget} ms | ${ms < budget ? 'yes' : 'no'} |`);
  const rss = med(r.rss[0]!) / 1024 / 1024;
  console.log(`| idle \`stoa serve\` RSS | ${fmt(rss, 0)} MB | – | – | – | < 100 MB | ${rss < 100 ? 'yes' : 'no'} |`);
  // Issue 30 item 3: the listing a person types, and what a server holds while nobody uses it.
  reportAims([
    { aim: '`stoa files ls`, local mode', value: med(r.ls[0]!), line: 300, unit: 'ms', better: 'lower', strict: true, note: `median of ${ROUNDS}` },
    { aim: '`stoa files ls`, remote mode', value: med(r.lsRemote[0]!), line: 300, unit: 'ms', better: 'lower', strict: true, note: `median of ${ROUNDS}` },
    { aim: 'idle `stoa serve` RSS', value: rss, line: 100, unit: 'MB', better: 'lower', strict: true },
  ]);
  if (AGAINST) {
    console.log(`\nThis checkout beside ${AGAINST} (same rounds, by turns), medians:\n`);
    console.log(`| what | this checkout | ${AGAINST} | ratio (this ÷ other) | this ÷ \`node -e 0\` | other ÷ \`node -e 0\` |`);
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const [what, xs] of [
      ['`stoa --help`', r.help],
      ['`stoa files ls` (local mode)', r.ls],
      ['`stoa files ls` (remote mode)', r.lsRemote],
      ['`stoa serve` listening', r.serve],
    ] as const) {
      const [a, b] = [med(xs[0]!), med(xs[1]!)];
      console.log(`| ${what} | ${fmt(a, 0)} ms | ${fmt(b, 0)} ms | ${fmt(a / b, 2)}× | ${fmt(a / node, 2)}× | ${fmt(b / node, 2)}× |`);
    }
    const [a, b] = [med(r.rss[0]!) / 1024 / 1024, med(r.rss[1]!) / 1024 / 1024];
    console.log(`| idle \`stoa serve\` RSS | ${fmt(a, 0)} MB | ${fmt(b, 0)} MB | ${fmt(a / b, 2)}× | – | – |`);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
