import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
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
import { runStoa, stoaJson } from './helpers/run-stoa.js';

/**
 * `stoa memory …` and `stoa turn …` as a user runs them (§7, M1–M6): the real binary in local mode on a
 * data folder, and in remote mode against a server on the same folder.
 */
const root = mkdtempSync(join(tmpdir(), 'stoa-cli-memory-'));
const data = join(root, 'data');
let platform: Platform;
let app: FastifyInstance;
let url: string;
const ids = { a: '', b: '', general: '', private: '' };
const tokens = { alice: '', bob: '', vera: '', agentA: '' };

const local = (args: string[]) => runStoa(['--data', data, ...args], { timeoutMs: 300_000 });
const localJson = <T = any>(args: string[]) => stoaJson<T>(['--data', data, ...args, '--json'], { timeoutMs: 300_000 });
const remote = (token: string, args: string[]) => runStoa(['--url', url, '--token', token, ...args], { timeoutMs: 300_000 });
function refused(r: { code: number | null; stderr: string }, code: string): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(new RegExp(`^error ${code}: `));
}

beforeAll(async () => {
  platform = await openPlatform(loadConfig({ dataDir: data, env: {} }));
  await bootstrap(platform);
  const admin = await contextFor(platform, await localAdminPrincipal(platform), {});
  const user = async (name: string, role: string) => {
    const m = await addMember(admin, { user: name, role });
    return contextFor(platform, { kind: 'user', userId: m.userId, name, superuser: false }, {});
  };
  const alice = await user('alice', 'editor');
  const bob = await user('bob', 'editor');
  await user('vera', 'viewer');
  ids.a = (await createAgent(alice, { name: 'Archivist', instructions: 'You keep the archive tidy.' })).id;
  ids.b = (await createAgent(bob, { name: 'Bard', instructions: 'You sing.' })).id;
  ids.general = (await createConversation(alice, { channel: 'general', members: [ids.a, 'vera'] })).id;
  ids.private = (await createConversation(bob, { channel: 'private', members: [ids.b] })).id;
  for (const n of ['alice', 'bob', 'vera'] as const) tokens[n] = (await createToken(admin, { user: n })).token;
  tokens.agentA = (await createToken(admin, { agent: ids.a })).token;
  app = await buildApp({ platform, webRoot: null });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await platform?.close();
  rmSync(root, { recursive: true, force: true });
});

// Both modes share one data folder and its saved versions: the remote steps follow the local ones.
describe('stoa memory', { shuffle: false }, () => {
  // A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
  describe('stoa memory in local mode', { timeout: 300_000, shuffle: false }, () => {
    it('a never-saved SOUL.md reads as version 0 with the instructions, by --for or acting as the agent', async () => {
      const byAdmin = await localJson(['memory', 'get', 'SOUL.md', '--for', ids.a]);
      expect(byAdmin).toMatchObject({ file: 'SOUL.md', version: 0, content: 'You keep the archive tidy.' });
      const byAgent = await localJson(['--agent', ids.a, 'memory', 'get', 'SOUL.md']);
      expect(Object.keys(byAgent)).toEqual(expect.arrayContaining(['file', 'version', 'content']));
      expect(byAgent.content).toBe(byAdmin.content);
    });

    it('set takes @file and --base; a stale base is memory_version_conflict', async () => {
      const f = join(root, 'agents.md');
      writeFileSync(f, '# Rules\nAlways cite the renewal date.\n');
      expect(await localJson(['memory', 'set', 'AGENTS.md', `@${f}`, '--base', '0'])).toMatchObject({ file: 'AGENTS.md', version: 1 });
      refused(await local(['memory', 'set', 'AGENTS.md', 'overwrite', '--base', '0']), 'memory_version_conflict');
      expect((await localJson(['memory', 'get', 'AGENTS.md'])).content).toBe('# Rules\nAlways cite the renewal date.\n');
    });

    it('append, history and show, in three languages, with authors', async () => {
      await localJson(['--agent', ids.a, '--conversation', ids.general, 'memory', 'append', 'MEMORY.md', 'The ACME renewal moved to 2 November']);
      await localJson(['memory', 'append', 'MEMORY.md', 'Встреча с клиентом перенесена на пятницу', '--channel', 'general']);
      await localJson(['memory', 'append', 'MEMORY.md', '数据迁移计划在下周完成', '--channel', ids.general]);
      const doc = await localJson(['memory', 'get', 'MEMORY.md', '--channel', 'general']);
      expect(doc).toMatchObject({
        file: 'MEMORY.md',
        version: 3,
        content: 'The ACME renewal moved to 2 November\nВстреча с клиентом перенесена на пятницу\n数据迁移计划在下周完成\n',
      });
      const history = await localJson<any[]>(['memory', 'history', 'MEMORY.md', '--channel', 'general']);
      expect(history.map((v) => [v.version, v.author.kind])).toEqual([
        [3, 'user'],
        [2, 'user'],
        [1, 'agent'],
      ]);
      expect(history[2].author).toMatchObject({ name: 'Archivist', conversationId: ids.general });
      expect((await localJson(['memory', 'show', 'MEMORY.md', '1', '--channel', 'general'])).content).toBe('The ACME renewal moved to 2 November\n');
      const human = await local(['memory', 'history', 'MEMORY.md', '--channel', 'general']);
      expect(human.stdout).toMatch(/agent: Archivist/);
    });

    it('search: ranked hits with snippets, English, Russian and Chinese', async () => {
      const en = await localJson<any[]>(['memory', 'search', 'renewal']);
      expect(en.map((h) => h.file).sort()).toEqual(['AGENTS.md', 'MEMORY.md']);
      for (const h of en) for (const k of ['path', 'title', 'snippet', 'score']) expect(h).toHaveProperty(k);
      expect(en[0].score).toBeGreaterThanOrEqual(en[1].score);
      expect((await localJson<any[]>(['memory', 'search', 'встречу']))[0]).toMatchObject({ file: 'MEMORY.md', path: `${ids.general}/MEMORY.md` });
      expect((await localJson<any[]>(['memory', 'search', '数据迁移']))[0].snippet).toContain('数据迁移');
    });

    it('there is no workspace-wide MEMORY.md; agents keep to their own SOUL.md, AGENTS.md is read-only to them, --channel needs participation', async () => {
      const r = await local(['memory', 'get', 'MEMORY.md']);
      refused(r, 'bad_request');
      expect(r.stderr).toMatch(/no workspace-wide MEMORY.md/);
      refused(await local(['--agent', ids.a, 'memory', 'append', 'AGENTS.md', 'I rule now']), 'forbidden');
      refused(await local(['--agent', ids.a, 'memory', 'set', 'SOUL.md', 'You sing badly.', '--for', ids.b]), 'forbidden');
      // A channel the agent is not in does not exist for it (issue 27).
      refused(await local(['--agent', ids.a, '--conversation', ids.general, 'memory', 'get', 'MEMORY.md', '--channel', 'private']), 'not_found');
      expect(await localJson(['--agent', ids.a, 'memory', 'append', 'SOUL.md', 'I label every box.'])).toMatchObject({
        version: 1,
        content: 'You keep the archive tidy.\nI label every box.\n',
      });
    });

    it("pull --dir writes SOUL.md, AGENTS.md and the conversation's MEMORY.md under .stoa/memory/", async () => {
      const dir = join(root, 'pull');
      const written = await localJson<any[]>(['--agent', ids.a, '--conversation', ids.general, 'memory', 'pull', '--dir', dir]);
      expect(written.map((w) => w.path)).toEqual([
        join('.stoa', 'memory', 'SOUL.md'),
        join('.stoa', 'memory', 'AGENTS.md'),
        join('.stoa', 'memory', ids.general, 'MEMORY.md'),
      ]);
      expect(readFileSync(join(dir, '.stoa/memory/SOUL.md'), 'utf8')).toContain('I label every box.');
      expect(readFileSync(join(dir, `.stoa/memory/${ids.general}/MEMORY.md`), 'utf8')).toContain('ACME');
    });

    it('turn prepare/commit: changed files prepended, edits saved, and merged after a concurrent human edit', async () => {
      const work = join(root, 'work');
      const turn = ['--agent', ids.a, '--conversation', ids.general, 'turn'];
      const first = await local([...turn, 'prepare', '--workdir', work, '--message', 'Please file the invoice.']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('I label every box.');
      expect(first.stdout).toContain('Always cite the renewal date.');
      expect(first.stdout.trimEnd().endsWith('Please file the invoice.')).toBe(true);
      const mem = join(work, '.stoa', 'memory', ids.general, 'MEMORY.md');
      expect(existsSync(join(work, '.stoa', 'memory', 'AGENTS.md'))).toBe(true);
      appendFileSync(mem, 'Invoice 42 filed under 2026/Q4.\n');
      const saved = await localJson([...turn, 'commit', '--workdir', work]);
      expect(saved.files.map((f: any) => [f.file, f.status])).toEqual([
        ['SOUL.md', 'unchanged'],
        ['AGENTS.md', 'unchanged'],
        ['MEMORY.md', 'saved'],
      ]);

      const msgFile = join(root, 'msg.txt');
      writeFileSync(msgFile, 'Next task.');
      const second = await local([...turn, 'prepare', '--workdir', work, '--message', `@${msgFile}`]);
      expect(second.stdout.trim()).toBe('Next task.');
      appendFileSync(mem, 'Agent: invoice 43 pending.\n');
      await localJson(['memory', 'append', 'MEMORY.md', 'Human: invoice 43 is paid.', '--channel', 'general']);
      const merged = await localJson([...turn, 'commit', '--workdir', work]);
      expect(merged.files.find((f: any) => f.file === 'MEMORY.md').status).toBe('merged');
      const text = (await localJson(['memory', 'get', 'MEMORY.md', '--channel', 'general'])).content.trim().split('\n');
      expect(text.slice(-3)).toEqual(['Invoice 42 filed under 2026/Q4.', 'Human: invoice 43 is paid.', 'Agent: invoice 43 pending.']);
    });
  });

  // A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
  describe('stoa memory in remote mode', { timeout: 300_000, shuffle: false }, () => {
    it("a non-participant cannot read a conversation's MEMORY.md; a viewer cannot edit AGENTS.md", async () => {
      // To a non-participant the channel answers exactly as a missing one (issue 27).
      const hidden = await remote(tokens.bob, ['memory', 'get', 'MEMORY.md', '--channel', 'general']);
      refused(hidden, 'not_found');
      const missing = await remote(tokens.bob, ['memory', 'get', 'MEMORY.md', '--channel', 'nowhere']);
      expect(hidden.stderr.replace('general', 'X')).toBe(missing.stderr.replace('nowhere', 'X'));
      refused(await remote(tokens.vera, ['memory', 'set', 'AGENTS.md', 'viewer rules']), 'forbidden');
      const r = await remote(tokens.vera, ['memory', 'get', 'MEMORY.md', '--channel', 'general', '--json']);
      expect(JSON.parse(r.stdout)).toMatchObject({ file: 'MEMORY.md', editable: false });
    });

    it('a person names whose SOUL.md with --agent; the owner edits it, others only read it', async () => {
      const set = await remote(tokens.alice, ['memory', 'set', 'SOUL.md', 'You keep the archive tidy and dated.', '--agent', ids.a, '--json']);
      expect(set.code, set.stderr).toBe(0);
      expect(JSON.parse(set.stdout)).toMatchObject({ file: 'SOUL.md', author: { kind: 'user', name: 'alice' } });
      refused(await remote(tokens.bob, ['memory', 'set', 'SOUL.md', 'hijack', '--agent', ids.a]), 'forbidden');
      const read = await remote(tokens.bob, ['memory', 'get', 'SOUL.md', '--agent', ids.a]);
      expect(read.stdout).toBe('You keep the archive tidy and dated.\n');
    });

    it('an agent token appends to the MEMORY.md of the conversation it acts in', async () => {
      const r = await remote(tokens.agentA, ['--conversation', ids.general, 'memory', 'append', 'MEMORY.md', 'Remote agent note', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ file: 'MEMORY.md', conversation: ids.general, author: { kind: 'agent', name: 'Archivist' } });
    });

    it('"-" is standard input for every text argument: memory append, a search query, agent instructions (issue 28)', async () => {
      const piped = await runStoa(['--data', data, 'memory', 'append', 'MEMORY.md', '-', '--channel', 'general', '--json'], {
        input: 'Piped note: call Ana\n',
      });
      expect(piped.code, piped.stderr).toBe(0);
      const doc = await localJson(['memory', 'get', 'MEMORY.md', '--channel', 'general']);
      expect(doc.content).toMatch(/Piped note: call Ana\n$/);
      expect(doc.content).not.toMatch(/^-$/m);
      const hits = await runStoa(['--data', data, 'memory', 'search', '-', '--json'], { input: 'Piped note' });
      expect(JSON.parse(hits.stdout)[0]).toMatchObject({ file: 'MEMORY.md' });
      const agent = await runStoa(['--data', data, 'agents', 'create', 'Piper', '--instructions', '-', '--json'], { input: 'Be brief.' });
      expect(JSON.parse(agent.stdout)).toMatchObject({ name: 'Piper', instructions: 'Be brief.' });
      // Standard input ends once: two "-" arguments are a usage error, not an empty second text.
      const twice = await runStoa(['--data', data, 'wiki', 'put', 'notes/twice', '-', '--title', '-', '--json'], { input: 'Text' });
      expect([twice.code, JSON.parse(twice.stderr).error.code]).toEqual([2, 'usage']);
    });
  });
});
