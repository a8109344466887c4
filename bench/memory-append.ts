/**
 * Memory append latency under concurrency (M5: append happens on the server, in one transaction holding
 * the file's row). 16 concurrent writers — half people, half the conversation's agent — append lines to the
 * same MEMORY.md, and then each to a MEMORY.md of its own, on SQLite and on PostgreSQL side by side. Each
 * back end gets a fresh database of its own (the PostgreSQL one is created and dropped here).
 *
 *   node --import tsx bench/memory-append.ts [--writers 16] [--appends 50] [--json out.json]
 *
 * Needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust) or STOA_TEST_PG_URL; `--sqlite-only` skips it.
 * Latency is per `memory.append` call through the operation runner, as a door sees it: waiting for the row lock, the
 * version row, the outbox row of its search blocks, the commit (the blocks are written after it, decision 0020)
 * and, on SQLite, the sync that makes it durable (shared with the appends of that moment, decision 0022). Aim: p99 under 50 ms. `CPU/append` is this process's CPU time per
 * append (the server side of the work; PostgreSQL's own CPU is not in it), which stays meaningful when the
 * machine is shared and wall-clock latencies are inflated.
 */
import { writeFileSync } from 'node:fs';
import { appendMemory, createAgent, createConversation, getMemory, runOperation, type Ctx } from '@stoa/core/testing';
import { createTestPlatform } from '@stoa/core/testing';
import { reportAims, type Aim } from './lib/aims.js';

interface Args {
  writers: number;
  appends: number;
  json?: string;
  sqliteOnly: boolean;
  /** `--pg-only`: PostgreSQL alone (profiling, sampling its activity). */
  pgOnly: boolean;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    writers: Number(get('--writers') ?? 16),
    appends: Number(get('--appends') ?? 50),
    json: get('--json'),
    sqliteOnly: argv.includes('--sqlite-only'),
    pgOnly: argv.includes('--pg-only'),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Result {
  backend: string;
  scenario: string;
  writers: number;
  appends: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  cpuPerAppend: number;
  linesOk: boolean;
}

async function run(kind: 'sqlite' | 'postgres', args: Args): Promise<Result[]> {
  // The agent's appends count in its write window like at every door; raised so the run fits in it.
  // STOA_INDEX_DELAY_MS as a server reads it (decision 0035), to compare a setting with the default in one session.
  const delay = process.env.STOA_INDEX_DELAY_MS;
  const t = await createTestPlatform(kind, { agentWritesPerConversation: 1_000_000 }, delay ? { indexDelayMs: Number(delay) } : {});
  try {
    const admin = await t.admin();
    const people: Ctx[] = [];
    for (let i = 0; i < args.writers / 2; i++) people.push(await t.userCtx(`writer${i}`, 'editor'));
    const agentId = (await createAgent(admin, { name: 'Bench agent' })).id;
    const shared = (await createConversation(admin, { channel: 'bench', members: [agentId, ...people.map((_, i) => `writer${i}`)] })).id;
    const agent = await t.agentCtx(agentId, shared);
    const writers: Ctx[] = Array.from({ length: args.writers }, (_, i) => (i % 2 === 0 ? people[i / 2]! : agent));
    const own: string[] = [];
    for (let i = 0; i < args.writers; i++)
      own.push((await createConversation(admin, { channel: `own-${i}`, members: [agentId, ...people.map((_, j) => `writer${j}`)] })).id);

    const scenario = async (name: string, convOf: (w: number) => string): Promise<Result> => {
      // Warm-up, not measured: first writes create the rows; then all writers at once, twice, so the connection pool
      // holds as many connections as the measured appends use (a server's pool is warm; opening 15 PostgreSQL
      // connections at once took the first appends of each writer 100–130 ms on a 2-core machine, and at 16 × 50
      // appends those 16 are the p99).
      for (let w = 0; w < args.writers; w++) await appendMemory(writers[w]!, { file: 'MEMORY.md', conversation: convOf(w) }, `warm-up ${w}`);
      for (let round = 0; round < 2; round++)
        await Promise.all(writers.map((ctx, w) => appendMemory(ctx, { file: 'MEMORY.md', conversation: convOf(w) }, `warm-up ${w} ${round}`)));
      const latencies: number[] = [];
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      await Promise.all(
        writers.map(async (ctx, w) => {
          for (let i = 0; i < args.appends; i++) {
            const t0 = performance.now();
            // Through the operation runner, as every door calls it: with its durability barrier (decision 0022).
            await runOperation(ctx, 'memory.append', { file: 'MEMORY.md', conversation: convOf(w), text: `${name} writer ${w} line ${i}` });
            latencies.push(performance.now() - t0);
          }
        }),
      );
      const elapsed = performance.now() - started;
      const cpu = process.cpuUsage(cpu0);
      latencies.sort((a, b) => a - b);
      // Every line must be there exactly once, or the figure means nothing.
      let linesOk = true;
      for (const conv of new Set(writers.map((_, w) => convOf(w)))) {
        const lines = (await getMemory(admin, { file: 'MEMORY.md', conversation: conv })).content.split('\n').filter((l) => l.startsWith(`${name} writer `));
        const expected = writers.filter((_, w) => convOf(w) === conv).length * args.appends;
        if (lines.length !== expected || new Set(lines).size !== expected) linesOk = false;
      }
      return {
        backend: kind,
        scenario: name,
        writers: args.writers,
        appends: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies[latencies.length - 1]!,
        perSecond: (latencies.length / elapsed) * 1000,
        cpuPerAppend: (cpu.user + cpu.system) / 1000 / latencies.length,
        linesOk,
      };
    };
    return [await scenario('same-file', () => shared), await scenario('own-file', (w) => own[w]!)];
  } finally {
    await t.cleanup();
  }
}

const args = parseArgs(process.argv.slice(2));
const results: Result[] = [];
for (const kind of args.sqliteOnly ? (['sqlite'] as const) : args.pgOnly ? (['postgres'] as const) : (['sqlite', 'postgres'] as const))
  results.push(...(await run(kind, args)));
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`memory append latency, ${args.writers} concurrent writers × ${args.appends} appends each (Node ${process.version})\n`);
console.log(['backend   ', 'scenario  ', 'p50      ', 'p99      ', 'max      ', 'appends/s', 'CPU/append', 'all lines once'].join('  '));
for (const r of results) {
  console.log(
    [
      r.backend.padEnd(10),
      r.scenario.padEnd(10),
      ms(r.p50).padEnd(9),
      ms(r.p99).padEnd(9),
      ms(r.max).padEnd(9),
      r.perSecond.toFixed(0).padEnd(9),
      ms(r.cpuPerAppend).padEnd(10),
      r.linesOk ? 'yes' : 'NO',
    ].join('  '),
  );
}
// Issue 30 item 4: one shared memory file appended by 16 writers, p99 under 50 ms on each engine.
if (args.writers === 16)
  reportAims(
    results
      .filter((r) => r.scenario === 'same-file')
      .map(
        (r) =>
          ({
            aim: `memory: one file appended by 16 writers, p99, ${r.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
            value: r.p99,
            line: 50,
            unit: 'ms',
            better: 'lower',
            strict: true,
          }) satisfies Aim,
      ),
  );
if (args.json) writeFileSync(args.json, JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2));
if (results.some((r) => !r.linesOk)) process.exitCode = 1;
