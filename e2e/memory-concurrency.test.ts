import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { memoryRoutes, StoaError } from '@stoa/contract';
import {
  addMember,
  bootstrap,
  contextFor,
  createAgent,
  createConversation,
  createToken,
  loadConfig,
  localAdminPrincipal,
  openPlatform,
  type Platform,
} from '@stoa/core/testing';
import { buildApp } from '@stoa/server';
import { StoaClient, commitTurnFromDir, prepareTurnInDir } from '@stoa/sdk';
import { runStoa } from './helpers/run-stoa.js';

// Separate `stoa` processes started at once: a dozen times more writers than these 2-core machines have cores,
// each opening the data folder and appending while the others hold or wait for the write lock. Each start costs
// half a second of CPU here, so 24 (not 50, as over HTTP below) keeps the file within a CI run's budget.
const PROCESSES = 24;

/**
 * Memory under real concurrency (M4, M5, M6): separate `stoa` processes appending to one data folder,
 * parallel appends and saves over HTTP, and the hosted-agent turn cycle through the SDK — on every back end.
 */

interface Seeded {
  agentId: string;
  conv: string;
  aliceToken: string;
  agentToken: string;
  adminToken: string;
}

/** A fresh data folder (SQLite) or data folder + fresh PostgreSQL database, with people, an agent and a channel. */
async function freshData(kind: 'sqlite' | 'postgres'): Promise<{ dataDir: string; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stoa-memc-'));
  // Every memory save of an agent counts in its conversation's write window (§9); these tests are about
  // concurrency, so one conversation may take all of their saves.
  const window = { STOA_AGENT_WRITES_PER_CONVERSATION: '1000' };
  if (kind === 'sqlite') return { dataDir, env: window, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const { db, url, cleanup } = await createTestDb('postgres');
  await db.close();
  return {
    dataDir,
    env: { ...window, STOA_DATABASE_URL: url! },
    cleanup: async () => {
      await cleanup().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function seed(platform: Platform): Promise<Seeded> {
  await bootstrap(platform);
  const admin = await contextFor(platform, await localAdminPrincipal(platform), {});
  const m = await addMember(admin, { user: 'alice', role: 'editor' });
  const alice = await contextFor(platform, { kind: 'user', userId: m.userId, name: 'alice', superuser: false }, {});
  const agentId = (await createAgent(alice, { name: 'Scribe', instructions: 'Take notes.' })).id;
  const conv = (await createConversation(alice, { channel: 'ops', members: [agentId] })).id;
  return {
    agentId,
    conv,
    aliceToken: (await createToken(admin, { user: 'alice' })).token,
    agentToken: (await createToken(admin, { agent: agentId })).token,
    adminToken: (await createToken(admin, { user: 'admin' })).token,
  };
}

function lines(content: string): string[] {
  return content.split('\n').filter((l) => l !== '');
}

describe.each(testDbKinds())('memory concurrency on %s', { timeout: 900_000 }, (kind) => {
  let data: Awaited<ReturnType<typeof freshData>>;
  let platform: Platform;
  let app: FastifyInstance;
  let url: string;
  let s: Seeded;

  beforeAll(async () => {
    data = await freshData(kind);
    platform = await openPlatform(loadConfig({ dataDir: data.dataDir, env: data.env }));
    s = await seed(platform);
    app = await buildApp({ platform, webRoot: null });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await platform?.close();
    await data?.cleanup();
  });

  it(`${PROCESSES} concurrent appends from separate local-mode processes on one data folder: every line once`, async () => {
    const runs = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        runStoa(['--data', data.dataDir, '--agent', s.agentId, '--conversation', s.conv, 'memory', 'append', 'MEMORY.md', `process line ${i}`], {
          env: data.env,
          timeoutMs: 600_000,
        }),
      ),
    );
    for (const r of runs) expect(r.stderr + `exit ${r.code}`).toBe('exit 0');
    const admin = new StoaClient({ url, token: s.adminToken });
    const doc = await admin.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: 'ops' });
    const got = lines(doc.content).filter((l) => l.startsWith('process line '));
    expect(got).toHaveLength(PROCESSES);
    expect(new Set(got).size).toBe(PROCESSES);
    for (let i = 0; i < PROCESSES; i++) expect(got).toContain(`process line ${i}`);
  });

  it('50 concurrent appends over HTTP, from the agent and a person: every line once', async () => {
    const agent = new StoaClient({ url, token: s.agentToken, conversationId: s.conv });
    const alice = new StoaClient({ url, token: s.aliceToken });
    const before = await alice.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: s.conv });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? agent.call(memoryRoutes.append, { project: 'default', file: 'MEMORY.md', text: `http line ${i}` })
          : alice.call(memoryRoutes.append, { project: 'default', file: 'MEMORY.md', conversation: 'ops', text: `http line ${i}` }),
      ),
    );
    const doc = await alice.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: s.conv });
    const got = lines(doc.content).filter((l) => l.startsWith('http line '));
    expect(got).toHaveLength(50);
    expect(new Set(got).size).toBe(50);
    expect(doc.version).toBe(before.version + 50);
    const history = await alice.call(memoryRoutes.history, { project: 'default', file: 'MEMORY.md', conversation: s.conv });
    expect(history.filter((v) => v.author?.kind === 'agent' && v.author.conversationId === s.conv).length).toBeGreaterThanOrEqual(25);
  });

  it('two concurrent saves on the same base: exactly one wins, the other gets 409 memory_version_conflict with the current version', async () => {
    const admin = new StoaClient({ url, token: s.adminToken });
    const start = await admin.call(memoryRoutes.set, { project: 'default', file: 'AGENTS.md', content: 'Rules v1\n' });
    const put = (content: string) =>
      fetch(`${url}/api/v1/projects/default/memory/file`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${s.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ file: 'AGENTS.md', content, base: start.version }),
      });
    const [a, b] = await Promise.all([put('Rules from A\n'), put('Rules from B\n')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = await loser.json();
    expect(problem).toMatchObject({ code: 'memory_version_conflict', currentVersion: start.version + 1 });
    const now = await admin.call(memoryRoutes.get, { project: 'default', file: 'AGENTS.md' });
    expect(now.version).toBe(start.version + 1);
    expect(['Rules from A\n', 'Rules from B\n']).toContain(now.content);
  });

  it('the prepare/commit cycle over HTTP, with and without a concurrent human edit', async () => {
    const workdir = mkdtempSync(join(tmpdir(), 'stoa-turn-'));
    try {
      const runtime = new StoaClient({ url, token: s.aliceToken }); // the agent's owner runs its turns
      const alice = runtime;
      const ref = { project: 'default', agent: s.agentId, conversation: s.conv, workdir };
      await prepareTurnInDir(runtime, { ...ref, message: 'first' });
      const memFile = join(workdir, '.stoa', 'memory', s.conv, 'MEMORY.md');
      appendFileSync(memFile, 'Agent: quiet turn\n');
      const quiet = await commitTurnFromDir(runtime, ref);
      expect(quiet.files.find((f) => f.file === 'MEMORY.md')?.status).toBe('saved');
      const afterQuiet = await alice.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: s.conv });
      expect(afterQuiet.content).toBe(readFileSync(memFile, 'utf8'));
      expect(afterQuiet.author).toMatchObject({ kind: 'agent', name: 'Scribe' });

      const second = await prepareTurnInDir(runtime, { ...ref, message: 'second' });
      expect(second.message).toBe('second'); // nothing changed since the agent last saw it
      appendFileSync(memFile, 'Agent: busy turn\n');
      await alice.call(memoryRoutes.append, { project: 'default', file: 'MEMORY.md', conversation: s.conv, text: 'Human: meanwhile' });
      const busy = await commitTurnFromDir(runtime, ref);
      expect(busy.files.find((f) => f.file === 'MEMORY.md')?.status).toBe('merged');
      const merged = lines((await alice.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md', conversation: s.conv })).content);
      expect(merged.slice(-2)).toEqual(['Human: meanwhile', 'Agent: busy turn']);
      expect(merged.filter((l) => l === 'Agent: quiet turn')).toHaveLength(1);

      const third = await prepareTurnInDir(runtime, { ...ref, message: 'third' });
      expect(third.message).toContain('Human: meanwhile');
      expect(third.message.endsWith('third')).toBe(true);
      expect(readFileSync(memFile, 'utf8')).toContain('Human: meanwhile');
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
  });

  it('the server refuses what the rules refuse', async () => {
    const agent = new StoaClient({ url, token: s.agentToken, conversationId: s.conv });
    await expect(agent.call(memoryRoutes.set, { project: 'default', file: 'AGENTS.md', content: 'mine now' })).rejects.toMatchObject({ code: 'forbidden' });
    const admin = new StoaClient({ url, token: s.adminToken });
    const e = await admin.call(memoryRoutes.get, { project: 'default', file: 'MEMORY.md' }).catch((x: StoaError) => x);
    expect(e).toMatchObject({ code: 'bad_request' });
  });
});
