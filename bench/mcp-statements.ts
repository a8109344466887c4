/**
 * What one MCP write and one MCP read ask of the database (issue 30 item 2): the SQL statements and the
 * transactions of `ws_write_file` (4 KB) and `ws_read_file`, called in-process exactly as `stoa mcp` calls them in
 * local mode (apps/cli/src/commands/mcp.ts: a fresh context per call, then the `tools.call` operation), on SQLite
 * with the fs blob store. better-sqlite3's statements are counted where they run, so every layer is included
 * (context, runner, mutator, trace, the search outbox drained after the commit). Also the CPU per write + read
 * pair of this process.
 *
 *   node --import tsx bench/mcp-statements.ts                    # 300 pairs under $TMPDIR
 *   BENCH_MCP_N=1000 BENCH_MCP_DIR=/dev/shm node --import tsx bench/mcp-statements.ts
 *   BENCH_SQL=1 node --import tsx bench/mcp-statements.ts        # also print the statements of one write and one read
 */
import Database from 'better-sqlite3';
import { DefaultQueryCompiler } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentPrincipal, contextFor, runOperation, type Platform } from '@stoa/core';
import { bootstrap, createAgent, createConversation, loadConfig, localAdminPrincipal, openPlatform } from '@stoa/core/testing';

const N = Number(process.env.BENCH_MCP_N ?? 300);
const WARMUP = 20;
const TIME_SQL = process.env.BENCH_SQL === '1';

/** Every statement better-sqlite3 runs, in order, while `log` is set. */
let log: string[] | null = null;
/** Time spent inside better-sqlite3 per statement (first 60 characters of its SQL). */
const sqlMs = new Map<string, number>();
{
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  for (const m of ['run', 'get', 'all', 'iterate'] as const) {
    const orig = proto[m]!;
    proto[m] = function (this: { source: string }, ...a: unknown[]) {
      if (!log) return orig.apply(this, a);
      log.push(this.source);
      // Timed only with BENCH_SQL=1, and the key made after the clock stops (it would count in the CPU per pair).
      if (!TIME_SQL) return orig.apply(this, a);
      const t0 = performance.now();
      try {
        return orig.apply(this, a);
      } finally {
        const ms = performance.now() - t0;
        const key = this.source.replace(/\s+/g, ' ').trim().slice(0, 60);
        sqlMs.set(key, (sqlMs.get(key) ?? 0) + ms);
      }
    };
  }
}

/** Statements Kysely built and compiled (not prebuilt, hot-query.ts) while `log` is set. */
let built = 0;
{
  const proto = DefaultQueryCompiler.prototype as unknown as { compileQuery: (...a: unknown[]) => unknown };
  const orig = proto.compileQuery;
  proto.compileQuery = function (this: unknown, ...a: unknown[]) {
    if (log) built++;
    return orig.apply(this, a);
  };
}

/** 4,096 bytes of text, different for every iteration (as bench/mcp-stdio.ts writes). */
function content(i: number): string {
  const head = `file ${i} ${'-'.repeat(20)}\n`;
  const line = 'The quick brown fox jumps over the lazy dog 0123456789.\n';
  let s = head;
  while (s.length < 4096) s += line;
  return s.slice(0, 4096);
}

interface Tally {
  statements: number;
  /** Of them built and compiled by Kysely on this call (the rest were prebuilt or are the blob tier's own). */
  built: number;
  transactions: number;
  writes: number;
}
/** Statements and write transactions of one call: a write outside BEGIN … COMMIT is a transaction of its own. */
function tally(sqls: string[], builtNow = 0): Tally {
  const t: Tally = { statements: 0, built: builtNow, transactions: 0, writes: 0 };
  let open = false;
  for (const s of sqls.map((x) => x.trim())) {
    if (/^begin/i.test(s)) {
      open = true;
      t.transactions++;
    } else if (/^(commit|rollback)/i.test(s)) open = false;
    else if (!/^(savepoint|release)/i.test(s)) {
      t.statements++;
      if (/^(insert|update|delete|replace)/i.test(s)) {
        t.writes++;
        if (!open) t.transactions++;
      }
    }
  }
  return t;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(process.env.BENCH_MCP_DIR ?? tmpdir(), 'stoa-bench-mcpsql-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, STOA_AGENT_WRITES_PER_CONVERSATION: '1000000' };
  const config = loadConfig({ dataDir: tmp, env });
  let platform: Platform = await openPlatform(config);
  await bootstrap(platform);
  const admin = await contextFor(platform, await localAdminPrincipal(platform), {});
  const agent = await createAgent(admin, { name: 'Bench', files: 'on' });
  const conv = await createConversation(admin, { members: [agent.id] });
  await platform.close();
  // As `stoa mcp` opens it (apps/cli/src/local-api.ts) and calls a tool (commands/mcp.ts, localBackend).
  platform = await openPlatform(config);
  await bootstrap(platform, { issueToken: false });
  const principal = await agentPrincipal(platform, agent.id);
  const opts = { conversationId: conv.id, processId: `stoa-mcp:${process.pid}` };
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await runOperation(await contextFor(platform, principal, opts), 'tools.call', { name, arguments: args })) as { text: string; refused?: boolean };
    if (r.refused) throw new Error(r.text);
    return r.text;
  };
  const settle = () => new Promise((r) => setTimeout(r, 2));

  const sums = { write: [] as Tally[], writeAfter: [] as Tally[], read: [] as Tally[], readAfter: [] as Tally[] };
  let sample: { write: string[]; writeAfter: string[]; read: string[] } | null = null;
  let cpuMs = 0;
  let wallMs = 0;
  for (let i = 0; i < WARMUP + N; i++) {
    const path = `run/f${i}.md`;
    const body = content(i);
    const record = i >= WARMUP;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const b: number[] = [];
    const w: string[] = (log = []);
    built = 0;
    await call('ws_write_file', { path, content: body });
    b.push(built);
    const wa: string[] = (log = []);
    built = 0;
    await settle();
    b.push(built);
    const r: string[] = (log = []);
    built = 0;
    const back = await call('ws_read_file', { path });
    b.push(built);
    const ra: string[] = (log = []);
    built = 0;
    await settle();
    b.push(built);
    log = null;
    const c = process.cpuUsage(c0);
    if (!back.includes(body.slice(0, 40))) throw new Error(`read back differs for ${path}: ${back.slice(0, 120)}`);
    if (!record) continue;
    wallMs += performance.now() - t0;
    cpuMs += (c.user + c.system) / 1000;
    sums.write.push(tally(w, b[0]));
    sums.writeAfter.push(tally(wa, b[1]));
    sums.read.push(tally(r, b[2]));
    sums.readAfter.push(tally(ra, b[3]));
    sample ??= { write: w, writeAfter: wa, read: r };
  }
  // The written text is found by search (it reads its outbox first).
  const found = (await runOperation(await contextFor(platform, principal, opts), 'tools.call', {
    name: 'search',
    arguments: { query: `file ${WARMUP + N - 1}` },
  })) as {
    text: string;
  };
  const searchOk = found.text.includes(`f${WARMUP + N - 1}.md`);
  await platform.close();
  rmSync(tmp, { recursive: true, force: true });

  const mean = (ts: Tally[], k: keyof Tally) => (ts.reduce((a, t) => a + t[k], 0) / ts.length).toFixed(2);
  console.log(`\n${N} × (ws_write_file 4 KB, ws_read_file), in-process as \`stoa mcp\` calls them, under ${process.env.BENCH_MCP_DIR ?? tmpdir()}\n`);
  console.log('| call | statements | of which writes | built by Kysely on the call | write transactions (a lone write counts) |');
  console.log('|---|---|---|---|---|');
  for (const [name, ts] of [
    ['ws_write_file', sums.write],
    ['  after its answer (outbox drain)', sums.writeAfter],
    ['ws_read_file', sums.read],
    ['  after its answer', sums.readAfter],
  ] as const)
    console.log(`| ${name} | ${mean(ts, 'statements')} | ${mean(ts, 'writes')} | ${mean(ts, 'built')} | ${mean(ts, 'transactions')} |`);
  console.log(
    `\nCPU per write + read pair (this process): ${(cpuMs / N).toFixed(2)} ms; wall ${(wallMs / N).toFixed(2)} ms (2 ms of settling per call included)`,
  );
  console.log(`search finds the last file written: ${searchOk ? 'yes' : 'NO'}`);
  if (process.env.BENCH_SQL === '1') {
    console.log('\nTime inside SQLite per pair, by statement (ms):');
    for (const [k, v] of [...sqlMs].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(v / (N + WARMUP)).toFixed(3)}  ${k}`);
  }
  if (process.env.BENCH_SQL === '1' && sample) {
    for (const [k, v] of Object.entries(sample)) {
      console.log(`\n${k}:`);
      for (const s of v) console.log(`  ${s.replace(/\s+/g, ' ').slice(0, 220)}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
