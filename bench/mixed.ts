/**
 * A team's mixed workload over HTTP (issue 16): reads, writes and folder listings of small markdown files, with
 * and without searches in the mix, on one server and on two servers sharing one database and one bucket.
 * SQLite and PostgreSQL side by side in one run; every server is a real `stoa serve` process, the bucket a real
 * s3rver, the database a fresh one made for the run (and dropped after it).
 *
 *   node --import tsx bench/mixed.ts                      # SQLite, then PostgreSQL (needs it at 127.0.0.1:5432)
 *   node --import tsx bench/mixed.ts --sqlite-only --seconds 10 --docs 500
 *   npm run soak -- --pg --minutes 10                     # two servers on PostgreSQL under mixed load (without --pg: one SQLite file)
 *
 * The soak samples each server's RSS and the database's connection count every 10 s, and at the end checks
 * that every acknowledged write is there: each PUT to its own path, read back by hash, and each memory append
 * line, present exactly once. It exits non-zero when something was lost.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { createTestDb } from '@stoa/db/testing';
import { httpJson, httpRequest, keepAliveAgent } from './lib/http-client.js';
import { currentRssBytes } from './lib/rss.js';
import { runConcurrent } from './lib/runner.js';
import { fmt, percentile, ratio } from './lib/stats.js';
import { startProcess, startStoa, type StartedServer } from './lib/stoa-server.js';

interface Args {
  seconds: number;
  docs: number;
  clients: number;
  kinds: Array<'sqlite' | 'postgres'>;
  soak: boolean;
  minutes: number;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string, fallback: number) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  const soak = argv.includes('--soak');
  return {
    seconds: value('--seconds', 20),
    docs: value('--docs', 1000),
    clients: value('--clients', 16),
    kinds: soak
      ? [argv.includes('--pg') ? 'postgres' : 'sqlite']
      : argv.includes('--pg-only')
        ? ['postgres']
        : argv.includes('--sqlite-only')
          ? ['sqlite']
          : ['sqlite', 'postgres'],
    soak,
    minutes: value('--minutes', 5),
  };
}

/** A deterministic pseudo-random sequence, so every run (and back end) gets the same corpus and queries. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'ro', 'mi', 'sel', 'tan', 'dor', 'vi', 'lu', 'pe', 'ost', 'gra', 'nem', 'bul', 'ra', 'fen', 'zo'];
const VOCABULARY = (() => {
  const rnd = prng(7);
  const words = new Set<string>();
  while (words.size < 3000) words.add(Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join(''));
  // Some Russian and Chinese, as a team's notes have them.
  for (const w of ['отчёт', 'бюджет', 'встреча', 'договор', '项目', '会议', '预算', '报告']) words.add(w);
  return [...words];
})();

/** A markdown note of about `bytes` bytes; word frequencies follow a Zipf-like curve, as real text does. */
function note(rnd: () => number, bytes: number, title: string): Buffer {
  let text = `# ${title}\n\n`;
  while (Buffer.byteLength(text) < bytes) {
    const w = VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 3)]!;
    text += w + (rnd() < 0.08 ? '.\n' : ' ');
  }
  return Buffer.from(text);
}

interface Cluster {
  urls: string[];
  token: string;
  pids: number[];
  dbName?: string;
  pgUrl?: string;
  /** What the servers printed (for an error report). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `servers` Stoa processes on one fresh database of `kind` and one s3rver bucket. */
async function startCluster(kind: 'sqlite' | 'postgres', servers: number): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'stoa-mixed-'));
  const s3 = await startProcess({ args: ['--import', 'tsx', 'bench/lib/child-server.ts', 's3rver', join(dir, 's3')], ready: /listening on (\S+)/ });
  const db = await createTestDb(kind);
  await db.db.close();
  const env: Record<string, string> = {
    ...(kind === 'postgres' ? { STOA_DATABASE_URL: db.url! } : {}),
    STOA_STORAGE_URL: 's3://bench/mixed',
    STOA_S3_ENDPOINT: s3.url,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    STOA_QUOTA_BYTES: String(20 * 1024 ** 3),
    STOA_SWEEP_INTERVAL_SECONDS: '0',
  };
  const token = `bench_${Math.random().toString(36).slice(2)}`;
  const started: StartedServer[] = [];
  for (let i = 0; i < servers; i++) {
    const dataDir = kind === 'sqlite' ? dirname(db.file!) : join(dir, `node${i}`);
    started.push(await startStoa({ dataDir, env: { ...env, STOA_ADMIN_TOKEN: token } }));
  }
  return {
    urls: started.map((s) => s.url),
    token,
    pids: started.map((s) => s.pid),
    dbName: db.url?.slice(db.url.lastIndexOf('/') + 1),
    pgUrl: db.url,
    output: () => [s3, ...started].map((s) => s.output().slice(-3000)).join('\n'),
    async stop() {
      for (const s of started) await s.stop();
      await s3.stop();
      await db.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The workload: which request the i-th operation is. Searches take a fifth of the mix when asked for. */
function workload(cluster: Cluster, docs: number, withSearch: boolean, agent: ReturnType<typeof keepAliveAgent>) {
  const auth = { authorization: `Bearer ${cluster.token}` };
  const rnd = prng(42);
  const base = (i: number) => `${cluster.urls[i % cluster.urls.length]}/api/v1/projects/default`;
  const byKind: Record<string, number[]> = { get: [], put: [], list: [], search: [] };
  const task = async (i: number): Promise<void> => {
    const roll = rnd();
    const n = Math.floor(rnd() * docs);
    const folder = `notes/${n % 20}`;
    const kind = withSearch ? (roll < 0.4 ? 'get' : roll < 0.6 ? 'put' : roll < 0.8 ? 'list' : 'search') : roll < 0.5 ? 'get' : roll < 0.75 ? 'put' : 'list';
    const t0 = performance.now();
    let r;
    if (kind === 'get') r = await httpRequest(`${base(i)}/files/content?path=${folder}/${n}.md`, { method: 'GET', headers: auth, agent });
    else if (kind === 'put')
      r = await httpRequest(`${base(i)}/files/content?path=${folder}/${n}.md`, { method: 'PUT', headers: auth, agent, body: note(rnd, 2048, `Note ${n}`) });
    else if (kind === 'list') r = await httpRequest(`${base(i)}/folders?folder=${folder}&limit=100`, { method: 'GET', headers: auth, agent });
    else {
      const q = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 2)]).join(' ');
      r = await httpRequest(`${base(i)}/search?q=${encodeURIComponent(q)}&limit=10`, { method: 'GET', headers: auth, agent });
    }
    // Downloads from S3 are redirects; a 302 is the server's whole answer.
    if (r.status >= 400) throw new Error(`${kind} → ${r.status}`);
    byKind[kind]!.push(performance.now() - t0);
  };
  return { task, byKind };
}

async function seed(cluster: Cluster, docs: number): Promise<void> {
  const agent = keepAliveAgent(8);
  const rnd = prng(1);
  const auth = { authorization: `Bearer ${cluster.token}` };
  const r = await runConcurrent({
    count: docs,
    concurrency: 8,
    maxMs: 600_000,
    task: (n) =>
      httpJson(`${cluster.urls[0]}/api/v1/projects/default/files/content?path=notes/${n % 20}/${n}.md`, {
        method: 'PUT',
        headers: auth,
        agent,
        body: note(rnd, 2048, `Note ${n}`),
      }).then(() => undefined),
  });
  if (r.errors) throw new Error(`seeding failed: ${r.firstError}\n${cluster.output()}`);
  agent.destroy();
}

interface Row {
  kind: string;
  scenario: string;
  opsPerSec: number;
  p50: number;
  p99: number;
  searchP50: number;
  searchP99: number;
  errors: number;
}

async function measure(cluster: Cluster, args: Args, scenario: string, withSearch: boolean, kind: string): Promise<Row> {
  const agent = keepAliveAgent(args.clients);
  const w = workload(cluster, args.docs, withSearch, agent);
  const r = await runConcurrent({ count: 1e9, concurrency: args.clients, maxMs: args.seconds * 1000, task: w.task });
  agent.destroy();
  const all = r.latencies.sort((a, b) => a - b);
  const search = w.byKind.search!.sort((a, b) => a - b);
  if (r.firstError) process.stderr.write(`${kind} ${scenario}: first error ${r.firstError}\n`);
  return {
    kind,
    scenario,
    opsPerSec: (r.latencies.length / r.wallMs) * 1000,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    searchP50: percentile(search, 50),
    searchP99: percentile(search, 99),
    errors: r.errors,
  };
}

async function benchmark(args: Args): Promise<void> {
  const rows: Row[] = [];
  for (const kind of args.kinds) {
    for (const servers of [1, 2]) {
      const cluster = await startCluster(kind, servers);
      try {
        await seed(cluster, args.docs);
        if (servers === 1) rows.push(await measure(cluster, args, 'one server, no searches', false, kind));
        rows.push(await measure(cluster, args, `${servers === 1 ? 'one server' : 'two servers'}, with searches`, true, kind));
      } finally {
        await cluster.stop();
      }
    }
  }
  const name = (k: string) => (k === 'sqlite' ? 'SQLite' : 'PostgreSQL');
  console.log(`\nMixed workload: ${args.docs} notes of 2 KB, ${args.clients} clients, ${args.seconds} s per scenario, one s3rver bucket\n`);
  console.log('| back end | scenario | ops/s | p50 ms | p99 ms | search p50 ms | search p99 ms | errors |');
  console.log('| -------- | -------- | ----- | ------ | ------ | ------------- | ------------- | ------ |');
  for (const r of rows) {
    console.log(
      `| ${name(r.kind)} | ${r.scenario} | ${fmt(r.opsPerSec, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.searchP50)} | ${fmt(r.searchP99)} | ${r.errors} |`,
    );
  }
  console.log('\n| back end | with searches ÷ without (aim ≥ 0.5×) | two servers ÷ one (aim ≥ 1.6×) |');
  console.log('| -------- | ------------------------------------ | ------------------------------ |');
  for (const kind of args.kinds) {
    const of = (s: string) => rows.find((r) => r.kind === kind && r.scenario === s)!.opsPerSec;
    console.log(
      `| ${name(kind)} | ${ratio(of('one server, with searches'), of('one server, no searches'))} | ${ratio(of('two servers, with searches'), of('one server, with searches'))} |`,
    );
  }
  if (args.kinds.length === 2) {
    const of = (kind: string, s: string) => rows.find((r) => r.kind === kind && r.scenario === s)!;
    console.log('\n| scenario | PostgreSQL ÷ SQLite ops/s | search p50 PostgreSQL ÷ SQLite |');
    console.log('| -------- | ------------------------- | ------------------------------ |');
    for (const s of ['one server, no searches', 'one server, with searches', 'two servers, with searches']) {
      console.log(
        `| ${s} | ${ratio(of('postgres', s).opsPerSec, of('sqlite', s).opsPerSec)} | ${ratio(of('postgres', s).searchP50, of('sqlite', s).searchP50)} |`,
      );
    }
  }
}

/** Two servers under mixed load for `minutes`; memory and connections sampled; nothing acknowledged may be lost. */
async function soak(args: Args): Promise<void> {
  const kind = args.kinds[0]!;
  const cluster = await startCluster(kind, 2);
  const samples: string[] = [];
  let lost = 0;
  try {
    await seed(cluster, args.docs);
    const agent = keepAliveAgent(args.clients);
    const auth = { authorization: `Bearer ${cluster.token}` };
    const mixed = workload(cluster, args.docs, true, agent);
    await httpJson(`${cluster.urls[0]}/api/v1/projects/default/conversations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      agent,
      body: Buffer.from(JSON.stringify({ channel: 'soak' })),
    });
    const written = new Map<string, string>();
    const lines: string[] = [];
    const pgc = cluster.pgUrl ? new pg.Client({ connectionString: cluster.pgUrl }) : null;
    pgc?.on('error', () => undefined); // the database is dropped at the end, under it
    await pgc?.connect();
    const connections = async () =>
      pgc ? String((await pgc.query('select count(*)::int as n from pg_stat_activity where datname = $1', [cluster.dbName])).rows[0].n) : '–';
    let done = 0;
    const started = performance.now();
    const stopAt = started + args.minutes * 60_000;
    const sampler = setInterval(() => {
      void connections().then((n) => {
        const [a, b] = cluster.pids.map((p) => (currentRssBytes(p) ?? 0) / 1024 ** 2);
        samples.push(`| ${fmt((performance.now() - started) / 1000, 0)} | ${fmt(a!, 0)} | ${fmt(b!, 0)} | ${n} | ${done} |`);
      });
    }, 10_000);
    const r = await runConcurrent({
      count: 1e9,
      concurrency: args.clients,
      maxMs: stopAt - performance.now(),
      task: async (i) => {
        const base = `${cluster.urls[i % 2]}/api/v1/projects/default`;
        if (i % 10 === 0) {
          // A write to a path of its own: its content must be there at the end.
          const body = Buffer.from(`soak write ${i}\n`.repeat(100));
          await httpJson(`${base}/files/content?path=soak/${i}.md`, { method: 'PUT', headers: auth, agent, body });
          written.set(`soak/${i}.md`, createHash('sha256').update(body).digest('hex'));
        } else if (i % 10 === 1) {
          const line = `line ${i}`;
          await httpJson(`${base}/memory/append`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            agent,
            body: Buffer.from(JSON.stringify({ file: 'MEMORY.md', conversation: 'soak', text: line })),
          });
          lines.push(line);
        } else await mixed.task(i);
        done++;
      },
    });
    clearInterval(sampler);
    for (const [path, sha] of written) {
      const got = await httpRequest(`${cluster.urls[0]}/api/v1/projects/default/files/content?path=${path}&redirect=false`, {
        method: 'GET',
        headers: auth,
        agent,
        collect: true,
      });
      if (got.status !== 200 || createHash('sha256').update(got.body!).digest('hex') !== sha) lost++;
    }
    const memory = await httpJson<{ content: string }>(`${cluster.urls[1]}/api/v1/projects/default/memory/file?file=MEMORY.md&conversation=soak`, {
      method: 'GET',
      headers: auth,
      agent,
    });
    const present = new Map<string, number>();
    for (const l of memory.content.split('\n')) present.set(l, (present.get(l) ?? 0) + 1);
    for (const l of lines) if (present.get(l) !== 1) lost++;
    await pgc?.end();
    agent.destroy();
    console.log(
      `\nSoak: two servers on ${kind === 'postgres' ? 'PostgreSQL' : 'one SQLite file'} + s3rver, ${args.clients} clients, ${args.minutes} min, ${fmt((r.latencies.length / r.wallMs) * 1000, 0)} ops/s`,
    );
    console.log(`errors: ${r.errors}${r.firstError ? ` (first: ${r.firstError})` : ''}`);
    console.log(`acknowledged writes checked: ${written.size} files, ${lines.length} memory lines; lost or duplicated: ${lost}\n`);
    console.log('| s | server 1 RSS MB | server 2 RSS MB | database connections | operations |');
    console.log('| - | --------------- | --------------- | -------------------- | ---------- |');
    for (const s of samples) console.log(s);
  } finally {
    await cluster.stop();
  }
  if (lost > 0) process.exit(1);
}

const args = parseArgs(process.argv.slice(2));
await (args.soak ? soak(args) : benchmark(args));
