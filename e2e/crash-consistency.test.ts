import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createTestDb } from '@stoa/db/testing';
import { baseEnv, REPO, STOA_BIN } from './helpers/run-stoa.js';

/**
 * Crash consistency (issue 9): SIGKILL the real server at random moments of a mixed workload — uploads,
 * overwrites, deletes, moves, memory appends, wiki saves — restart it on the same data, and check that every
 * acknowledged write is there, every file equals one of its acknowledged versions (or the write that was in
 * flight), usage equals the sum of sizes and no row lacks its bytes (the doctor finds no drift but orphans).
 * Kills per run: STOA_CRASH_KILLS (default 30: 18 on SQLite and 12 on PostgreSQL with STOA_TEST_PG=1; each costs a
 * restart of the server, 2–4 s on a 2-core machine, so a deeper run sets more).
 */
const TOKEN = 'stoa_crash_harness_admin_token_0123456789';
const totalKills = Number(process.env.STOA_CRASH_KILLS ?? 30);
const withPg = process.env.STOA_TEST_PG === '1';
const plans: Array<{ kind: 'sqlite' | 'postgres'; kills: number }> = withPg
  ? [
      { kind: 'sqlite', kills: Math.ceil(totalKills * 0.6) },
      { kind: 'postgres', kills: Math.floor(totalKills * 0.4) },
    ]
  : [{ kind: 'sqlite', kills: totalKills }];

/** What a path may hold after a crash: its last acknowledged content (null = absent) or an unacknowledged write's. */
interface PathState {
  acked: string | null;
  maybe: Set<string | null>;
}

class Model {
  files = new Map<string, PathState>();
  memoryLines: string[] = [];
  pages = new Map<string, PathState>();
  state(map: Map<string, PathState>, key: string): PathState {
    let s = map.get(key);
    if (!s) map.set(key, (s = { acked: null, maybe: new Set() }));
    return s;
  }
}

async function startServer(bin: string, dataDir: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'], {
    cwd: REPO,
    env: baseEnv({ STOA_ADMIN_TOKEN: TOKEN, STOA_SWEEP_INTERVAL_SECONDS: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in time: ${out} ${err}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out} ${err}`)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && /one-time link/.test(out)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  child.removeAllListeners('exit');
  return { child, url };
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** One client of the workload: runs operations one after another until the server dies under it. */
async function worker(url: string, id: number, model: Model, rand: () => number, seq: { n: number }): Promise<void> {
  const api = `${url}/api/v1/projects/default`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const paths = [0, 1, 2, 3].map((i) => `crash/w${id}/f${i}.txt`);
  for (;;) {
    const n = seq.n++;
    const r = rand();
    try {
      if (id === 0 && r < 0.3) {
        const line = `line-${n}`;
        const res = await fetch(`${api}/memory/append`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ file: 'AGENTS.md', text: line }),
        });
        if (res.ok) model.memoryLines.push(line);
        continue;
      }
      if (id === 0 && r < 0.6) {
        const page = `crash/page-${n % 3}`;
        const text = `page text ${n}`;
        const s = model.state(model.pages, page);
        s.maybe.add(text);
        const res = await fetch(`${api}/wiki/page`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ path: page, text }),
        });
        if (res.ok) {
          s.acked = text;
          s.maybe.clear();
        }
        continue;
      }
      const path = paths[Math.floor(rand() * paths.length)]!;
      const s = model.state(model.files, path);
      if (r < 0.75 || s.acked === null) {
        // Upload or overwrite; every content is unique, some are large enough to stream in many chunks.
        const content = `${path} v${n} `.repeat(rand() < 0.2 ? 20_000 : 3);
        s.maybe.add(content);
        const res = await fetch(`${api}/files/content?path=${encodeURIComponent(path)}`, { method: 'PUT', headers: auth, body: content });
        if (res.ok) {
          s.acked = content;
          s.maybe.clear();
        }
      } else if (r < 0.87) {
        s.maybe.add(null);
        const res = await fetch(`${api}/files?path=${encodeURIComponent(path)}`, { method: 'DELETE', headers: auth });
        if (res.ok) {
          s.acked = null;
          s.maybe.clear();
        }
      } else {
        const to = paths.find((p) => model.state(model.files, p).acked === null && model.state(model.files, p).maybe.size === 0);
        if (!to) continue;
        const t = model.state(model.files, to);
        const content = s.acked;
        s.maybe.add(null);
        t.maybe.add(content);
        const res = await fetch(`${api}/files/move`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ from: path, to }),
        });
        if (res.ok) {
          s.acked = null;
          s.maybe.clear();
          t.acked = content;
          t.maybe.clear();
        }
      }
    } catch {
      return; // the server was killed
    }
  }
}

/** Checks the data after a restart against the model; then what was in flight is settled as it turned out. */
async function check(url: string, model: Model): Promise<void> {
  const api = `${url}/api/v1/projects/default`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (const [path, s] of model.files) {
    const res = await fetch(`${api}/files/content?path=${encodeURIComponent(path)}`, { headers: auth });
    const actual = res.status === 404 ? null : await res.text();
    if (res.status !== 404) expect(res.status, path).toBe(200);
    const allowed = [s.acked, ...s.maybe];
    expect(allowed.includes(actual), `${path}: ${actual?.slice(0, 40)} is none of its acknowledged or in-flight versions`).toBe(true);
    s.acked = actual;
    s.maybe.clear();
  }
  for (const [page, s] of model.pages) {
    const res = await fetch(`${api}/wiki/page?path=${encodeURIComponent(page)}`, { headers: auth });
    const actual = res.status === 404 ? null : ((await res.json()) as { text: string }).text;
    expect([s.acked, ...s.maybe].includes(actual), `${page}: ${actual}`).toBe(true);
    s.acked = actual;
    s.maybe.clear();
  }
  const mem = await fetch(`${api}/memory/file?file=AGENTS.md`, { headers: auth });
  const content = mem.status === 404 ? '' : ((await mem.json()) as { content: string }).content;
  for (const line of model.memoryLines) expect(content, `acknowledged memory line ${line}`).toContain(line);
  const doctor = await fetch(`${url}/api/v1/admin/doctor`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
  const report = (await doctor.json()) as { findings: Array<{ kind: string; detail: string }> };
  // Bytes written by a request that died before its commit are orphans for the sweep; anything else is drift.
  expect(report.findings.filter((f) => f.kind !== 'orphaned_blobs')).toEqual([]);
}

describe.each(plans)('crash consistency on $kind', ({ kind, kills }) => {
  let bin: string;
  let dataDir: string;
  let env: Record<string, string> = {};
  let dropDb: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    bin = STOA_BIN;
    dataDir = mkdtempSync(join(tmpdir(), `stoa-crash-${kind}-`));
    if (kind === 'postgres') {
      const db = await createTestDb('postgres');
      env = { STOA_DATABASE_URL: db.url! };
      dropDb = db.cleanup;
    }
  }, 120_000);
  afterAll(async () => {
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${kills} SIGKILLs at random moments lose no acknowledged write and leave no drift`, { timeout: 60_000 + kills * 30_000 }, async () => {
    const rand = fc.sample(fc.double({ min: 0, max: 1, noNaN: true }), { seed: 9, numRuns: 1_000_000 }) as number[];
    let i = 0;
    const next = () => rand[i++ % rand.length]!;
    const model = new Model();
    const seq = { n: 0 };
    let server = await startServer(bin, dataDir, env);
    for (let k = 0; k < kills; k++) {
      const workers = [0, 1, 2].map((w) => worker(server.url, w, model, next, seq));
      // A random moment: while the first requests are in flight, or after many have completed.
      await new Promise((r) => setTimeout(r, 30 + Math.floor(next() * 600)));
      await kill(server.child);
      await Promise.all(workers);
      server = await startServer(bin, dataDir, env);
      await check(server.url, model);
    }
    await kill(server.child);
    expect(seq.n).toBeGreaterThan(kills);
  });
});
