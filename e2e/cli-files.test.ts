import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { baseEnv, REPO, runStoa, STOA_BIN, stoaJson, type RunOptions } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const FILE_KEYS = ['path', 'size', 'type', 'modified', 'createdBy'];

function expectFileShape(f: Record<string, unknown>): void {
  for (const k of FILE_KEYS) expect(f, `field ${k}`).toHaveProperty(k);
  expect(typeof f.path).toBe('string');
  expect(typeof f.size).toBe('number');
  expect(typeof f.type).toBe('string');
  expect(Number.isNaN(Date.parse(f.modified as string))).toBe(false);
  expect(typeof f.createdBy).toBe('string');
}

/** Usage counter and the files it must add up to, read straight from a data folder's SQLite file. */
function dbCounters(dataDir: string): { used: number; fileSizes: number; files: number } {
  const db = new Database(join(dataDir, 'stoa.db'), { readonly: true });
  try {
    const p = db.prepare("select used_bytes + reserved_bytes as used from projects where name = 'default'").get() as { used: number };
    const f = db.prepare('select count(*) as n, coalesce(sum(size), 0) as s from files').get() as { n: number; s: number };
    return { used: p.used, fileSizes: f.s, files: f.n };
  } finally {
    db.close();
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function localFile(name: string, content: string | Buffer): string {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
}

/**
 * The same acceptance scenario in both modes: `stoa files …` with --data (in-process) and with --url/--token
 * against a real `stoa serve`.
 */
type Cli = (args: string[], opts?: RunOptions) => ReturnType<typeof runStoa>;

function scenario(mode: string, setup: () => Promise<{ cli: Cli; done: () => Promise<void> }>) {
  // A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
  describe(`stoa files in ${mode} mode`, { timeout: 180_000, shuffle: false }, () => {
    let cli: Cli;
    let done: () => Promise<void>;
    const json = async (args: string[]) => {
      const r = await cli([...args, '--json']);
      expect(r.stderr, r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    beforeAll(async () => {
      ({ cli, done } = await setup());
    }, 120_000);
    afterAll(() => done());

    it('put, ls, find, stat, get: JSON shapes of §7 and bytes intact (Cyrillic/CJK names)', async () => {
      const put = await json(['files', 'put', localFile(`${mode}-report.md`, FIRST), 'отчёты/2026/отчёт.md']);
      expectFileShape(put);
      expect(put).toMatchObject({ path: 'отчёты/2026/отчёт.md', size: Buffer.byteLength(FIRST), type: 'text/markdown', createdBy: '' });
      await json(['files', 'put', localFile(`${mode}-cn.txt`, '你好'), '报告/总结.txt']);
      const out = join(tmp, `${mode}-got.md`);
      const [ls, find, stat, got, toStdout] = await Promise.all([
        json(['files', 'ls']),
        json(['files', 'find', 'ОТЧЁТ']),
        json(['files', 'stat', 'отчёты/2026/отчёт.md']),
        cli(['files', 'get', 'отчёты/2026/отчёт.md', out]),
        cli(['files', 'get', '报告/总结.txt', '-']),
      ]);
      expect(Array.isArray(ls)).toBe(true);
      ls.forEach(expectFileShape);
      expect(ls.map((f: any) => f.path)).toEqual(['отчёты/2026/отчёт.md', '报告/总结.txt']);
      expect(find.map((f: any) => f.path)).toEqual(['отчёты/2026/отчёт.md']);
      find.forEach(expectFileShape);
      expectFileShape(stat);
      expect(stat).toMatchObject({ version: 1, sha256: sha(FIRST) });
      expect(got.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(FIRST);
      expect(toStdout.stdout).toBe('你好');
    });

    it('versions and restore: an overwrite keeps the old version; restore PATH VERSION takes it back as a new one', async () => {
      await json(['files', 'put', localFile(`${mode}-v2.md`, 'second'), 'отчёты/2026/отчёт.md']);
      const vs = await json(['files', 'versions', 'отчёты/2026/отчёт.md']);
      expect(vs.map((v: any) => v.version)).toEqual([2, 1]);
      for (const v of vs) expect(Object.keys(v)).toEqual(expect.arrayContaining(['version', 'size', 'modified', 'author']));
      expect(vs.map((v: any) => [v.size, v.author])).toEqual([
        [6, 'admin'],
        [Buffer.byteLength(FIRST), 'admin'],
      ]);
      const restored = await json(['files', 'restore', 'отчёты/2026/отчёт.md', String(vs[1].version)]);
      expect(restored).toMatchObject({ version: 3, sha256: sha(FIRST) });
    });

    it('mv (into a folder with "/"), rm, usage; refusals print "error <code>: <message>" and exit 1', async () => {
      const moved = await json(['files', 'mv', '报告/总结.txt', 'archive/']);
      expect(moved.path).toBe('archive/总结.txt');
      const [clash, usage] = await Promise.all([cli(['files', 'mv', 'archive/总结.txt', 'отчёты/2026/отчёт.md']), json(['files', 'usage'])]);
      expect([clash.code, clash.stdout]).toEqual([1, '']);
      expect(clash.stderr).toBe('error already_exists: file "отчёты/2026/отчёт.md" already exists; nothing was overwritten\n');
      expect(usage).toMatchObject({ used: Buffer.byteLength(FIRST) + Buffer.byteLength('你好'), quota: 1073741824 });
      const rm = await cli(['files', 'rm', 'archive/总结.txt']);
      expect(rm.code).toBe(0);
      const [missing, invalid] = await Promise.all([
        cli(['files', 'stat', 'archive/总结.txt']),
        cli(['files', 'put', localFile(`${mode}-x.txt`, 'x'), 'a//b.txt']),
      ]);
      expect([missing.code, missing.stderr]).toEqual([1, 'error not_found: file "archive/总结.txt" does not exist\n']);
      expect([invalid.code, invalid.stderr]).toEqual([1, 'error path_invalid: empty path segment ("//") is not allowed\n']);
    });

    it('mkdir makes an empty folder; mv moves a whole folder; rm -r deletes one with everything in it', async () => {
      expect(await json(['files', 'mkdir', 'пусто/空'])).toEqual({ path: 'пусто/空', name: '空', fileCount: 0 });
      await json(['files', 'put', localFile(`${mode}-in.txt`, 'in'), 'пусто/空/in.txt']);
      expect(await json(['files', 'mv', 'пусто', 'archive/'])).toEqual({ path: 'archive/пусто', name: 'пусто', fileCount: 1 });
      expect((await json(['files', 'stat', 'archive/пусто/空/in.txt'])).size).toBe(2);
      const plain = await cli(['files', 'rm', 'archive']);
      expect([plain.code, plain.stderr]).toEqual([1, 'error bad_request: folder "archive" is not empty; delete it with everything in it (recursive)\n']);
      expect(await json(['files', 'rm', '-r', 'archive'])).toEqual({ path: 'archive', files: 1, bytes: 2 });
      expect((await cli(['files', 'stat', 'archive/пусто/空/in.txt'])).code).toBe(1);
    });
  });
}

const FIRST = '# Отчёт\nfirst';

scenario('local', async () => {
  const data = mkdtempSync(join(tmpdir(), 'stoa-cli-local-'));
  return { cli: (args, o) => runStoa(['--data', data, ...args], o), done: async () => rmSync(data, { recursive: true, force: true }) };
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa files: human output and usage errors', { timeout: 120_000, shuffle: false }, () => {
  it('shows a progress bar on a terminal for uploads and downloads of a few MiB, and none when piped', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-cli-progress-'));
    try {
      const big = localFile('progress.bin', Buffer.alloc(6 * 1024 * 1024, 'p'));
      const out = join(tmp, 'progress-got.bin');
      const cmd = `${process.execPath} ${STOA_BIN} --data ${data} files put ${big} p.bin && ${process.execPath} ${STOA_BIN} --data ${data} files get p.bin ${out}`;
      // `script` runs the commands on a pseudo-terminal, as a person at a terminal would.
      const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: REPO, env: baseEnv(), encoding: 'utf8', timeout: 60_000 });
      expect(tty.status).toBe(0);
      expect(tty.stdout).toMatch(/put p\.bin .*100% 6\.0 MiB \/ 6\.0 MiB/);
      expect(tty.stdout).toMatch(/get p\.bin .*100% 6\.0 MiB \/ 6\.0 MiB/);
      expect(statSync(out).size).toBe(6 * 1024 * 1024);
      const piped = await runStoa(['--data', data, 'files', 'get', 'p.bin', out]);
      expect(piped.stderr).toBe('');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('usage prints "Used … of 1.0 GiB"; bad arguments exit 2 with "error usage: …"', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-cli-usage-'));
    try {
      const [human, badVersion, unknown, missingArg] = await Promise.all([
        runStoa(['--data', data, 'files', 'usage']),
        runStoa(['--data', data, 'files', 'restore', 'a.md', 'abc']),
        runStoa(['--data', data, 'files', 'frobnicate']),
        runStoa(['--data', data, 'files', 'put', 'only-one-arg']),
      ]);
      expect([human.code, human.stdout]).toEqual([0, 'Used 0 B of 1.0 GiB\n']);
      expect(badVersion.code).toBe(2);
      expect(badVersion.stderr).toMatch(/^error usage: VERSION must be a positive integer/);
      expect(unknown.code).toBe(2);
      expect(missingArg.code).toBe(2);
      expect(missingArg.stderr).toMatch(/^error usage:/m);
      // With --json a usage error is one JSON object like any other error, still exit 2 (issue 28).
      const [jsonUnknown, jsonMissing, jsonBad] = await Promise.all([
        runStoa(['--data', data, 'files', 'frobnicate', '--json']),
        runStoa(['--data', data, '--json', 'files', 'put', 'only-one-arg']),
        runStoa(['--data', data, 'files', 'restore', 'a.md', 'abc', '--json']),
      ]);
      for (const r of [jsonUnknown, jsonMissing, jsonBad]) {
        expect(r.code).toBe(2);
        expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'usage', message: expect.any(String) } });
      }
      expect(JSON.parse(jsonMissing.stderr).error.message).toMatch(/missing required argument/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

scenario('remote', async () => {
  const server = await startStoaServer();
  return { cli: (args, o) => runStoa(['--url', server.url, '--token', server.adminToken, ...args], o), done: () => server.stop() };
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa files: large uploads, quota races and crashes', { timeout: 180_000, shuffle: false }, () => {
  let server: StoaServer;
  const DIRECT = 100_000;
  const PART = 64 * 1024;
  beforeAll(async () => {
    server = await startStoaServer({ env: { STOA_DIRECT_UPLOAD_BYTES: String(DIRECT), STOA_UPLOAD_PART_BYTES: String(PART) } });
  }, 120_000);
  afterAll(() => server.stop());

  it('remote mode sends files over STOA_DIRECT_UPLOAD_BYTES through a direct upload, and replacing one keeps its history (F8 as amended)', async () => {
    const big = Buffer.alloc(300_000, 'z');
    const file = localFile('big.bin', big);
    const env = { STOA_URL: server.url, STOA_TOKEN: server.adminToken, STOA_DIRECT_UPLOAD_BYTES: String(DIRECT) };
    const put = await stoaJson(['files', 'put', file, 'media/big.bin', '--json'], { env });
    expect(put).toMatchObject({ path: 'media/big.bin', size: 300_000 });
    const db = new Database(join(server.dataDir, 'stoa.db'), { readonly: true });
    try {
      const rows = db.prepare('select path, size, status from upload_reservations').all();
      expect(rows).toEqual([{ path: 'media/big.bin', size: 300_000, status: 'done' }]);
    } finally {
      db.close();
    }
    const replacement = localFile('big-2.bin', Buffer.alloc(280_000, 'y'));
    const again = await stoaJson(['files', 'put', replacement, 'media/big.bin', '--json'], { env });
    expect(again).toMatchObject({ path: 'media/big.bin', size: 280_000, version: 2 });
    expect(dbCounters(server.dataDir)).toEqual({ used: 280_000, fileSizes: 280_000, files: 1 });
  });

  it('a large upload killed half-way resumes where it stopped when the same command runs again', async () => {
    const data = randomBytes(24 * 1024 * 1024);
    const file = localFile('resume.bin', data);
    const state = mkdtempSync(join(tmp, 'state-'));
    const env = { STOA_URL: server.url, STOA_TOKEN: server.adminToken, STOA_DIRECT_UPLOAD_BYTES: String(DIRECT), XDG_STATE_HOME: state };
    const api = (path: string) => fetch(`${server.url}/api/v1/projects/default${path}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    const child = spawn(process.execPath, [STOA_BIN, 'files', 'put', file, 'media/resume.bin', '--json'], { cwd: REPO, env: baseEnv(env), stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    // The CLI notes the upload's id before it sends a byte; kill it once some (not all) of the 384 parts arrived.
    const saved = join(state, 'stoa', 'uploads');
    let uploadId = '';
    for (let i = 0; i < 3000 && !uploadId; i++) {
      const names = existsSync(saved) ? readdirSync(saved).filter((n) => n.endsWith('.json')) : [];
      if (names.length > 0) uploadId = JSON.parse(readFileSync(join(saved, names[0]!), 'utf8')).uploadId;
      else await new Promise((r) => setTimeout(r, 5));
    }
    expect(uploadId).toMatch(/^upl/);
    for (let i = 0; i < 3000; i++) {
      const s = await (await api(`/uploads/${uploadId}`)).json();
      if (s.received?.length > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    await exited;
    const before = await (await api(`/uploads/${uploadId}`)).json();
    expect(before.received.length).toBeGreaterThan(0);
    expect(before.received.length).toBeLessThan(before.partCount);

    const put = await stoaJson(['files', 'put', file, 'media/resume.bin', '--json'], { env });
    expect(put).toMatchObject({ path: 'media/resume.bin', size: data.length, sha256: sha(data) });
    // The same upload was finished: no second one was started, and the note of it is gone.
    const db = new Database(join(server.dataDir, 'stoa.db'), { readonly: true });
    try {
      expect(db.prepare("select id, status from upload_reservations where path = 'media/resume.bin'").all()).toEqual([{ id: uploadId, status: 'done' }]);
    } finally {
      db.close();
    }
    expect(readdirSync(saved)).toEqual([]);
    const got = await api(`/files/content?path=media/resume.bin`);
    expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(sha(data));
  });

  it('a large upload killed while finishing is not sent again on the next run, and makes exactly one version', async () => {
    const data = randomBytes(24 * 1024 * 1024);
    const file = localFile('finish.bin', data);
    const state = mkdtempSync(join(tmp, 'state-'));
    const env = { STOA_URL: server.url, STOA_TOKEN: server.adminToken, STOA_DIRECT_UPLOAD_BYTES: String(DIRECT), XDG_STATE_HOME: state };
    const api = (path: string) => fetch(`${server.url}/api/v1/projects/default${path}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    const child = spawn(process.execPath, [STOA_BIN, 'files', 'put', file, 'media/finish.bin', '--json'], { cwd: REPO, env: baseEnv(env), stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    // Every part has arrived once the note says the upload is being finished: kill the CLI right then.
    const saved = join(state, 'stoa', 'uploads');
    let note: { uploadId?: string; finishingFrom?: number } = {};
    for (let i = 0; i < 60_000 && note.finishingFrom === undefined; i++) {
      const names = existsSync(saved) ? readdirSync(saved).filter((n) => n.endsWith('.json')) : [];
      try {
        note = names.length > 0 ? JSON.parse(readFileSync(join(saved, names[0]!), 'utf8')) : {};
      } catch {
        note = {};
      }
      if (note.finishingFrom === undefined) await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    await exited;
    expect(note).toMatchObject({ uploadId: expect.stringMatching(/^upl/), finishingFrom: 0 });

    const put = await stoaJson(['files', 'put', file, 'media/finish.bin', '--json'], { env });
    expect(put).toMatchObject({ path: 'media/finish.bin', size: data.length, sha256: sha(data), version: 1 });
    // The one upload the killed run started was finished, by it or by the rerun; no second upload sent the bytes again.
    const db = new Database(join(server.dataDir, 'stoa.db'), { readonly: true });
    try {
      expect(db.prepare("select id, status from upload_reservations where path = 'media/finish.bin'").all()).toEqual([{ id: note.uploadId, status: 'done' }]);
    } finally {
      db.close();
    }
    expect(readdirSync(saved)).toEqual([]);
    expect((await (await api(`/files/versions?path=media/finish.bin`)).json()).map((v: { version: number }) => v.version)).toEqual([1]);
    const got = await api(`/files/content?path=media/finish.bin`);
    expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(sha(data));
  });

  it('local mode: two separate processes whose uploads together exceed the quota cannot both succeed', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-cli-race-'));
    try {
      await stoaJson(['--data', data, 'files', 'usage', '--json']); // create the data folder first
      const env = { STOA_QUOTA_BYTES: '1000000' };
      const a = localFile('race-a.bin', Buffer.alloc(600_000, 1));
      const b = localFile('race-b.bin', Buffer.alloc(600_000, 2));
      const rs = await Promise.all([
        runStoa(['--data', data, 'files', 'put', a, 'race/a.bin'], { env }),
        runStoa(['--data', data, 'files', 'put', b, 'race/b.bin'], { env }),
      ]);
      expect(rs.map((r) => r.code).sort()).toEqual([0, 1]);
      expect(rs.find((r) => r.code === 1)!.stderr).toMatch(/^error quota_exceeded: /);
      expect(dbCounters(data)).toEqual({ used: 600_000, fileSizes: 600_000, files: 1 });
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('local mode: SIGKILL in the middle of a large put leaves the old content, never a torn file, and usage consistent', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-cli-kill-'));
    try {
      const old = 'the old content';
      await stoaJson(['--data', data, 'files', 'put', localFile('old.txt', old), 'doc.bin', '--json']);
      const bigPath = join(tmp, 'huge.bin');
      const chunk = Buffer.alloc(1 << 20, 'n');
      writeFileSync(bigPath, Buffer.concat(Array.from({ length: 200 }, () => chunk)));
      const tmpDir = join(data, 'blobs', '.tmp');
      const child = spawn(process.execPath, [STOA_BIN, '--data', data, 'files', 'put', bigPath, 'doc.bin'], { cwd: REPO, env: baseEnv(), stdio: 'ignore' });
      // Kill it as soon as its temporary blob file is being written.
      const sawPart = await new Promise<boolean>((resolve) => {
        const iv = setInterval(() => {
          const parts = existsSync(tmpDir) ? readdirSync(tmpDir).filter((n) => n.endsWith('.part')) : [];
          if (
            parts.some((n) => {
              try {
                return statSync(join(tmpDir, n)).size > 0;
              } catch {
                return false;
              }
            })
          ) {
            clearInterval(iv);
            child.kill('SIGKILL');
            resolve(true);
          }
        }, 2);
        child.once('exit', () => {
          clearInterval(iv);
          resolve(false);
        });
      });
      await new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
      expect(sawPart, 'the put finished before it could be killed mid-write').toBe(true);
      const got = await runStoa(['--data', data, 'files', 'get', 'doc.bin', '-']);
      expect(got.stdout).toBe(old);
      expect(dbCounters(data)).toEqual({ used: old.length, fileSizes: old.length, files: 1 });
      // The store still works after the crash.
      const after = await stoaJson(['--data', data, 'files', 'put', localFile('new.txt', 'new'), 'doc.bin', '--json']);
      expect(after.version).toBe(2);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
