import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesRoutes } from '@stoa/contract';
import { StoaClient } from '@stoa/sdk';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-doctor-repair-'));
const TOKEN = 'stoa_doctor_repair_admin_token_0123456789';

interface Snapshot {
  files: Record<string, string>;
  folders: string[];
}

// A story (issue 32): after every kind of write the doors make, `doctor` finds a healthy store (exit 0) and
// `doctor --repair` changes nothing and removes nothing a person made. Each step builds on the ones before it.
describe('doctor and repair after every kind of write', { timeout: 300_000, shuffle: false }, () => {
  let server: StoaServer;
  let remote: string[];
  let client: StoaClient;
  beforeAll(async () => {
    server = await startStoaServer({ dataDir: join(tmp, 'data'), env: { STOA_ADMIN_TOKEN: TOKEN, STOA_UPLOAD_PART_BYTES: String(64 * 1024) } });
    remote = ['--url', server.url, '--token', server.adminToken];
    client = new StoaClient({ url: server.url, token: server.adminToken });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function snapshot(): Promise<Snapshot> {
    const list = await client.call(filesRoutes.list, { project: 'default', limit: 100000 });
    const tree = await client.call(filesRoutes.tree, { project: 'default' });
    return { files: Object.fromEntries(list.files.map((f) => [f.path, f.sha256])), folders: tree.map((d) => d.path).sort() };
  }

  /** Runs doctor, then repair: both find nothing and change nothing; what a person made is all still there. */
  async function healthy(after: string): Promise<Snapshot> {
    const before = await snapshot();
    const check = await runStoa([...remote, 'doctor', '--json']);
    expect([after, check.code, JSON.parse(check.stdout).findings]).toEqual([after, 0, []]);
    const repair = await runStoa([...remote, 'doctor', '--repair']);
    expect([after, repair.code]).toEqual([after, 0]);
    expect(repair.stdout).toContain('Repair changed nothing.');
    expect(await snapshot()).toEqual(before);
    return before;
  }

  const file = (name: string, text: string) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('an empty folder made with mkdir', async () => {
    await stoaJson([...remote, 'files', 'mkdir', 'empty/inner', '--json']);
    expect((await healthy('mkdir')).folders).toEqual(expect.arrayContaining(['empty', 'empty/inner']));
  });

  it('put, and a folder with an empty subfolder uploaded with put -r', async () => {
    await stoaJson([...remote, 'files', 'put', file('a.txt', 'alpha'), 'notes/a.txt', '--json']);
    const site = join(tmp, 'site');
    mkdirSync(join(site, 'assets', 'none'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<h1>hi</h1>');
    await stoaJson([...remote, 'files', 'put', '-r', site, 'site', '--json']);
    const s = await healthy('put -r');
    expect(s.folders).toEqual(expect.arrayContaining(['site', 'site/assets', 'site/assets/none', 'notes']));
  });

  it('a file moved and renamed, a folder moved', async () => {
    await stoaJson([...remote, 'files', 'mv', 'notes/a.txt', 'notes/b.txt', '--json']);
    await stoaJson([...remote, 'files', 'mv', 'notes/b.txt', 'empty/', '--json']);
    await stoaJson([...remote, 'files', 'mv', 'site', 'moved-site', '--json']);
    const s = await healthy('mv');
    expect(s.files['empty/b.txt']).toBeDefined();
    expect(s.folders).toEqual(expect.arrayContaining(['moved-site/assets/none', 'empty/inner']));
    // "notes" existed only because a file was in it: it goes with its last file (F2), by the write, not the repair.
    expect(s.folders).not.toContain('notes');
  });

  it('a file deleted (its folder stays when a person made it), a folder deleted', async () => {
    await stoaJson([...remote, 'files', 'rm', 'empty/b.txt', '--json']);
    await stoaJson([...remote, 'files', 'rm', '-r', 'moved-site/assets', '--json']);
    const s = await healthy('rm');
    expect(s.folders).toEqual(expect.arrayContaining(['empty', 'empty/inner', 'moved-site']));
    expect(s.folders).not.toContain('moved-site/assets');
  });

  it('new versions and a restore', async () => {
    await stoaJson([...remote, 'files', 'put', file('v.txt', 'one'), 'versions/v.txt', '--json']);
    await stoaJson([...remote, 'files', 'put', file('v.txt', 'two'), 'versions/v.txt', '--json']);
    await stoaJson([...remote, 'files', 'restore', 'versions/v.txt', '1', '--json']);
    await healthy('restore');
  });

  it('an upload in parts', async () => {
    const big = join(tmp, 'big.bin');
    writeFileSync(big, randomBytes(300 * 1024));
    const r = await stoaJson([...remote, 'files', 'put', big, 'parts/big.bin', '--json'], { env: { STOA_DIRECT_UPLOAD_BYTES: '1000' } });
    expect(r.size).toBe(300 * 1024);
    await healthy('upload in parts');
  });

  it('wiki pages written, renamed, moved and deleted', async () => {
    await stoaJson([...remote, 'wiki', 'put', 'guide/start', '# Start', '--json']);
    await stoaJson([...remote, 'wiki', 'put', 'guide/gone', '# Gone', '--json']);
    await stoaJson([...remote, 'wiki', 'rename', 'guide/start', 'Getting started', '--json']);
    await stoaJson([...remote, 'wiki', 'mv', 'guide/start', 'handbook/start', '--json']);
    await stoaJson([...remote, 'wiki', 'rm', 'guide/gone', '--json']);
    await healthy('wiki');
  });

  it('memory appended and set', async () => {
    await stoaJson([...remote, 'memory', 'append', 'AGENTS.md', 'Be kind.', '--json']);
    await stoaJson([...remote, 'memory', 'set', 'AGENTS.md', 'Be kind and brief.', '--json']);
    await healthy('memory');
  });

  it('WebDAV: a collection made, a file put, moved and deleted', async () => {
    const dav = (method: string, path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/dav/${path}`, { ...init, method, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string>) } });
    expect((await dav('MKCOL', 'webdav-empty')).status).toBe(201);
    expect((await dav('MKCOL', 'webdav')).status).toBe(201);
    expect((await dav('PUT', 'webdav/x.txt', { body: 'x' })).status).toBe(201);
    expect((await dav('MOVE', 'webdav/x.txt', { headers: { destination: `${server.url}/dav/webdav/y.txt` } })).status).toBe(201);
    expect((await dav('DELETE', 'webdav/y.txt')).status).toBe(204);
    const s = await healthy('webdav');
    expect(s.folders).toEqual(expect.arrayContaining(['webdav-empty', 'webdav']));
  });

  it('the same store checked in local mode on the data folder: still healthy, nothing removed', async () => {
    const before = await snapshot();
    await server.stop();
    const r = await stoaJson(['--data', server.dataDir, 'doctor', '--repair', '--json']);
    expect(r).toMatchObject({ ok: true, findings: [], repairs: [] });
    server = await startStoaServer({ dataDir: server.dataDir, env: { STOA_ADMIN_TOKEN: TOKEN } });
    client = new StoaClient({ url: server.url, token: TOKEN });
    expect(await snapshot()).toEqual(before);
  });
});
