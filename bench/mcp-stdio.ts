/**
 * MCP over stdio: Stoa's `stoa mcp` side by side with the official `@modelcontextprotocol/server-filesystem`,
 * driven by the same official MCP client in the same run (issue 3, "Tests and benchmark").
 *
 * Each iteration writes a distinct 4 KB text file and reads it back (checking the bytes), one call at a time,
 * as an agent does. The two servers run in alternating rounds so a noisy machine hurts both alike.
 *
 *   node --import tsx bench/mcp-stdio.ts                  # 1,000 iterations per server
 *   BENCH_MCP_N=200 node --import tsx bench/mcp-stdio.ts  # quicker
 *   BENCH_MCP_DIR=/dev/shm node --import tsx bench/mcp-stdio.ts  # both servers on tmpfs (fsync is free there)
 *   BENCH_STOA_NODE_ARGS='--trace-deopt' node --import tsx bench/mcp-stdio.ts  # Node options of the measured `stoa mcp`
 *   BENCH_MCP_BASE_ROOT=../base node --import tsx bench/mcp-stdio.ts  # also the `stoa mcp` of a built base checkout,
 *                                                                      # in the same alternating rounds
 *
 * Stoa runs with its full write path — scope checks, the per-conversation write counter in the database,
 * quota, a new version per write, "created by", the trace row per call, fsync'd content-addressed blobs. Only
 * STOA_AGENT_WRITES_PER_CONVERSATION is raised (to 1,000,000) so 1,000 writes fit in one conversation; the
 * counter is still checked and updated on every write.
 *
 * Also measures, for both servers in the same run: the size of the tool list an agent pays in every
 * conversation (characters of tools/list as JSON, and ÷ 4 as a stand-in for tokens; descriptions alone too) and
 * the time from starting the process to a completed `initialize` (median of BENCH_MCP_STARTS alternating starts).
 *
 * Prints Markdown tables: tool-list size, initialize time, iterations/s, p50 and p99 of one iteration (write +
 * read) in ms, and the ratios; on Linux also the CPU of each server process per iteration (from /proc). What one
 * write and one read ask of the database: bench/mcp-statements.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bootstrap, contextFor, createAgent, createConversation, loadConfig, localAdminPrincipal, openPlatform } from '@stoa/core/testing';
import { reportAims } from './lib/aims.js';
import { fmt, summarize, type Summary } from './lib/stats.js';

const N = Number(process.env.BENCH_MCP_N ?? 1000);
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 4);
const STARTS = Number(process.env.BENCH_MCP_STARTS ?? 5);
/** Pairs each server runs before the measured rounds (not measured): 20 by default; a few thousand give its steady state. */
const WARMUP = Number(process.env.BENCH_MCP_WARMUP ?? 20);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const STOA_BIN = join(REPO, 'apps/cli/bin/stoa.js');
const FS_BIN = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

interface Target {
  name: string;
  client: Client;
  write: (path: string, content: string) => Promise<void>;
  read: (path: string) => Promise<string>;
  latencies: number[];
  /** The write's and the read's own times, ms. */
  writeMs: number[];
  readMs: number[];
  wallMs: number;
  /** CPU ms of the server process over the recorded iterations (Linux /proc; 0 elsewhere). */
  cpuMs: number;
  /** Of it, in the kernel (system time). */
  sysMs: number;
}

/** utime + stime and stime alone of a process in ms (Linux /proc), or zeros when it cannot be read. */
function cpuSplit(pid: number | null | undefined): { total: number; sys: number } {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // clock ticks of 10 ms
    return { total: ((Number(f[11]) + Number(f[12])) * 1000) / 100, sys: (Number(f[12]) * 1000) / 100 };
  } catch {
    return { total: 0, sys: 0 };
  }
}

const pidOf = (c: Client): number | null | undefined => (c.transport as StdioClientTransport | undefined)?.pid;

const textOf = (r: any): string => (r.content as Array<{ text: string }>)[0]!.text;

/** 4,096 bytes of text, different for every iteration (so content-addressed storage cannot dedupe). */
function content(i: number): string {
  const head = `file ${i} ${'-'.repeat(20)}\n`;
  const line = 'The quick brown fox jumps over the lazy dog 0123456789.\n';
  let s = head;
  while (s.length < 4096) s += line;
  return s.slice(0, 4096);
}

async function connect(command: string, args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'stoa-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'inherit', cwd: REPO }));
  return client;
}

/** Characters of every description in a tool list (tool and parameter descriptions). */
function descriptionChars(o: unknown): number {
  if (Array.isArray(o)) return o.reduce((n: number, x) => n + descriptionChars(x), 0);
  if (o && typeof o === 'object')
    return Object.entries(o).reduce((n, [k, v]) => n + (k === 'description' && typeof v === 'string' ? v.length : descriptionChars(v)), 0);
  return 0;
}

/** Starts a server, times spawn → initialize done, lists its tools, closes it. */
async function startOnce(command: string, args: string[], env: Record<string, string>): Promise<{ ms: number; tools: unknown[] }> {
  const t0 = performance.now();
  const client = await connect(command, args, env);
  const ms = performance.now() - t0;
  const { tools } = await client.listTools();
  await client.close();
  return { ms, tools };
}

/**
 * BENCH_MCP_BASE_ROOT: a data folder with an agent and a conversation made by the base checkout's own code (its
 * migrations may differ from this checkout's), for its `stoa mcp`.
 */
async function baseSetup(root: string, dataDir: string): Promise<{ agent: string; conv: string }> {
  const { execFileSync } = await import('node:child_process');
  const core = join(root, 'packages/core/src/testing.ts');
  const script = `
    const { bootstrap, contextFor, createAgent, createConversation, loadConfig, localAdminPrincipal, openPlatform } = await import(${JSON.stringify(core)});
    const platform = await openPlatform(loadConfig({ dataDir: ${JSON.stringify(dataDir)}, env: { STOA_AGENT_WRITES_PER_CONVERSATION: '1000000' } }));
    await bootstrap(platform);
    const admin = await contextFor(platform, await localAdminPrincipal(platform), {});
    const agent = await createAgent(admin, { name: 'Bench', files: 'on' });
    const conv = await createConversation(admin, { members: [agent.id] });
    await platform.close();
    console.log(JSON.stringify({ agent: agent.id, conv: conv.id }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { agent: string; conv: string };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function iterate(t: Target, from: number, to: number, prefix: string, record: boolean): Promise<void> {
  const started = performance.now();
  const cpu0 = cpuSplit(pidOf(t.client));
  for (let i = from; i < to; i++) {
    const path = `${prefix}/f${i}.md`;
    const body = content(i);
    const t0 = performance.now();
    await t.write(path, body);
    const t1 = performance.now();
    const back = await t.read(path);
    const ms = performance.now() - t0;
    if (back !== body) throw new Error(`${t.name}: read back differs for ${path}: ${back.slice(0, 120)}`);
    if (record) {
      t.latencies.push(ms);
      t.writeMs.push(t1 - t0);
      t.readMs.push(t0 + ms - t1);
    }
  }
  if (record) {
    t.wallMs += performance.now() - started;
    const cpu1 = cpuSplit(pidOf(t.client));
    t.cpuMs += cpu1.total - cpu0.total;
    t.sysMs += cpu1.sys - cpu0.sys;
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(process.env.BENCH_MCP_DIR ?? tmpdir(), 'stoa-bench-mcp-'));
  const dataDir = join(tmp, 'stoa');
  const fsRoot = join(tmp, 'fs');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, STOA_AGENT_WRITES_PER_CONVERSATION: '1000000' };
  // Settings given to the bench (STOA_INLINE_BLOB_BYTES=…) reach the Stoa processes too.
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('STOA_') && v !== undefined && !(k in env)) env[k] = v;
  // Set up an agent with file access and a dialog, in-process, on the data folder `stoa mcp` will serve.
  const platform = await openPlatform(loadConfig({ dataDir, env }));
  await bootstrap(platform);
  const admin = await contextFor(platform, await localAdminPrincipal(platform), {});
  const agent = await createAgent(admin, { name: 'Bench', files: 'on' });
  const conv = await createConversation(admin, { members: [agent.id] });
  await platform.close();
  const { mkdirSync } = await import('node:fs');
  mkdirSync(fsRoot, { recursive: true });

  const stoa: Target = {
    name: 'Stoa (stoa mcp, SQLite + fs blobs)',
    client: await connect(
      process.execPath,
      [
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        ...(process.env.BENCH_STOA_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        STOA_BIN,
        'mcp',
        '--data',
        dataDir,
        '--agent',
        agent.id,
        '--conversation',
        conv.id,
      ],
      env,
    ),
    write: async (path, c) => {
      const r = await stoa.client.callTool({ name: 'ws_write_file', arguments: { path, content: c } });
      if (r.isError) throw new Error(textOf(r));
    },
    read: async (path) => textOf(await stoa.client.callTool({ name: 'ws_read_file', arguments: { path } })),
    latencies: [],
    writeMs: [],
    readMs: [],
    wallMs: 0,
    cpuMs: 0,
    sysMs: 0,
  };
  const fsTarget: Target = {
    name: '@modelcontextprotocol/server-filesystem',
    client: await connect(process.execPath, [FS_BIN, fsRoot], env),
    write: async (path, c) => {
      const r = await fsTarget.client.callTool({ name: 'write_file', arguments: { path: join(fsRoot, path), content: c } });
      if (r.isError) throw new Error(textOf(r));
    },
    read: async (path) => textOf(await fsTarget.client.callTool({ name: 'read_text_file', arguments: { path: join(fsRoot, path) } })),
    latencies: [],
    writeMs: [],
    readMs: [],
    wallMs: 0,
    cpuMs: 0,
    sysMs: 0,
  };
  const baseRoot = process.env.BENCH_MCP_BASE_ROOT;
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROF, 'base')}`] : [];
  let base: Target | undefined;
  if (baseRoot) {
    const baseData = join(tmp, 'stoa-base');
    const ids = await baseSetup(baseRoot, baseData);
    base = {
      name: 'Stoa base (BENCH_MCP_BASE_ROOT)',
      client: await connect(
        process.execPath,
        [...profile, join(baseRoot, 'apps/cli/bin/stoa.js'), 'mcp', '--data', baseData, '--agent', ids.agent, '--conversation', ids.conv],
        env,
      ),
      write: async (path, c) => {
        const r = await base!.client.callTool({ name: 'ws_write_file', arguments: { path, content: c } });
        if (r.isError) throw new Error(textOf(r));
      },
      read: async (path) => textOf(await base!.client.callTool({ name: 'ws_read_file', arguments: { path } })),
      latencies: [],
      writeMs: [],
      readMs: [],
      wallMs: 0,
      cpuMs: 0,
      sysMs: 0,
    };
  }
  // server-filesystem needs the folders to exist; Stoa creates them (F2).
  for (const d of ['warm', 'run']) mkdirSync(join(fsRoot, d), { recursive: true });

  const stoaArgs = [STOA_BIN, 'mcp', '--data', dataDir, '--agent', agent.id, '--conversation', conv.id];
  const starts = { stoa: [] as number[], fs: [] as number[] };
  let lists = { stoa: [] as unknown[], fs: [] as unknown[] };
  for (let i = 0; i < STARTS; i++) {
    const a = await startOnce(process.execPath, stoaArgs, env);
    const b = await startOnce(process.execPath, [FS_BIN, fsRoot], env);
    starts.stoa.push(a.ms);
    starts.fs.push(b.ms);
    lists = { stoa: a.tools, fs: b.tools };
  }

  const targets = [stoa, fsTarget, ...(base ? [base] : [])];
  for (const t of targets) await iterate(t, 0, WARMUP, 'warm', false);
  const per = Math.ceil(N / ROUNDS);
  for (let r = 0; r < ROUNDS; r++) {
    const from = r * per;
    const to = Math.min(N, from + per);
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) await iterate(t, from, to, 'run', true);
  }
  await stoa.client.close();
  await fsTarget.client.close();
  await base?.client.close();
  rmSync(tmp, { recursive: true, force: true });

  const s: Summary = summarize(stoa.latencies, stoa.wallMs);
  const f: Summary = summarize(fsTarget.latencies, fsTarget.wallMs);
  const row = (name: string, x: Summary) => `| ${name} | ${x.ops} | ${fmt(x.opsPerSec)} | ${fmt(x.p50)} | ${fmt(x.p99)} |`;
  const size = (tools: unknown[]) => ({ n: tools.length, chars: JSON.stringify(tools).length, desc: descriptionChars(tools) });
  const ls = size(lists.stoa);
  const lf = size(lists.fs);
  console.log('\nTool list (tools/list as JSON; tokens ≈ characters ÷ 4)\n');
  console.log('| server | tools | characters | ≈ tokens | description characters |');
  console.log('|---|---|---|---|---|');
  console.log(`| Stoa | ${ls.n} | ${ls.chars} | ${Math.round(ls.chars / 4)} | ${ls.desc} |`);
  console.log(`| server-filesystem | ${lf.n} | ${lf.chars} | ${Math.round(lf.chars / 4)} | ${lf.desc} |`);
  console.log(
    `\nTool-list size ratio Stoa / server-filesystem: ${(ls.chars / lf.chars).toFixed(2)}× (per tool: ${(ls.chars / ls.n / (lf.chars / lf.n)).toFixed(2)}×)`,
  );
  const ms = { stoa: median(starts.stoa), fs: median(starts.fs) };
  console.log(
    `\nStart → initialize done, median of ${STARTS} alternating starts: Stoa ${fmt(ms.stoa)} ms, server-filesystem ${fmt(ms.fs)} ms; ratio (speed) ${(ms.fs / ms.stoa).toFixed(2)}×`,
  );
  console.log(
    `\nMCP stdio, ${N} × (write a 4 KB file, read it back), one call at a time, ${ROUNDS} alternating rounds, files under ${process.env.BENCH_MCP_DIR ?? tmpdir()}\n`,
  );
  console.log('| server | iterations | iterations/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  console.log(row(stoa.name, s));
  console.log(row(fsTarget.name, f));
  const b = base ? summarize(base.latencies, base.wallMs) : undefined;
  if (base && b) console.log(row(base.name, b));
  console.log(`\nThroughput ratio Stoa / server-filesystem: ${(s.opsPerSec / f.opsPerSec).toFixed(2)}×`);
  if (stoa.cpuMs > 0)
    console.log(
      `\nCPU of the server process per write + read pair: Stoa ${fmt(stoa.cpuMs / s.ops, 2)} ms, server-filesystem ${fmt(fsTarget.cpuMs / f.ops, 2)} ms (${(stoa.cpuMs / s.ops / (fsTarget.cpuMs / f.ops)).toFixed(2)}×)`,
    );
  if (stoa.cpuMs > 0)
    console.log(
      `Of it in the kernel (system time): Stoa ${fmt(stoa.sysMs / s.ops, 2)} ms, server-filesystem ${fmt(fsTarget.sysMs / f.ops, 2)} ms${base && b ? `, base ${fmt(base.sysMs / b.ops, 2)} ms` : ''}`,
    );
  console.log(
    `p50 of the write alone / the read alone, ms: ${targets.map((t) => `${t === stoa ? 'Stoa' : t === fsTarget ? 'server-filesystem' : 'base'} ${fmt(median(t.writeMs))} / ${fmt(median(t.readMs))}`).join(', ')}`,
  );
  console.log(`p50 ratio (speed) server-filesystem ÷ Stoa: ${(f.p50 / s.p50).toFixed(2)}×`);
  if (base && b) {
    console.log(
      `Base / server-filesystem: ${(b.opsPerSec / f.opsPerSec).toFixed(2)}×; this checkout ÷ base: throughput ${(s.opsPerSec / b.opsPerSec).toFixed(2)}×, p50 ${(s.p50 / b.p50).toFixed(2)}×`,
    );
    if (base.cpuMs > 0)
      console.log(
        `CPU per pair: base ${fmt(base.cpuMs / b.ops, 2)} ms, this checkout ${fmt(stoa.cpuMs / s.ops, 2)} ms (${(stoa.cpuMs / s.ops / (base.cpuMs / b.ops)).toFixed(2)}×); p50 ratio server-filesystem ÷ base ${(f.p50 / b.p50).toFixed(2)}×`,
      );
  }
  // Issue 30 item 2: write + read at least as fast as the official filesystem server; `initialize` within its time.
  reportAims([
    {
      aim: 'MCP: 4 KB write + read, Stoa ÷ server-filesystem',
      value: s.opsPerSec / f.opsPerSec,
      line: 1,
      unit: '×',
      better: 'higher',
      note: `pairs/s, files under ${process.env.BENCH_MCP_DIR ?? tmpdir()}`,
    },
    {
      aim: 'MCP: start → initialize, Stoa ÷ server-filesystem',
      value: ms.stoa / ms.fs,
      line: 1,
      unit: '×',
      better: 'lower',
      note: `median of ${STARTS} starts`,
    },
  ]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
