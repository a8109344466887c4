import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-doctor-'));
const data = join(tmp, 'data');

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa doctor (local and remote)', { timeout: 300_000, shuffle: false }, () => {
  let server: StoaServer;
  beforeAll(async () => {
    writeFileSync(join(tmp, 'a.txt'), 'hello doctor');
    await stoaJson(['--data', data, 'files', 'put', join(tmp, 'a.txt'), 'notes/a.txt', '--json']);
    // The folder was created in local mode, so the server prints no token: give it one.
    server = await startStoaServer({ dataDir: data, env: { STOA_ADMIN_TOKEN: 'stoa_doctor_test_admin_token_0123456789' } });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('reports a consistent store, as JSON and for people, through the server as its administrator', async () => {
    const remote = ['--url', server.url, '--token', server.adminToken];
    const report = await stoaJson([...remote, 'doctor', '--json']);
    expect(report).toMatchObject({ ok: true, findings: [], checked: { files: 1, versions: 1 } });
    const human = await runStoa([...remote, 'doctor']);
    expect([human.code, human.stdout]).toEqual([0, expect.stringContaining('No drift found.')]);
    const editor = await stoaJson([...remote, 'members', 'add', 'eddie', '--role', 'editor', '--json']);
    expect(editor.role).toBe('editor');
    const token = (await stoaJson([...remote, 'tokens', 'create', '--user', 'eddie', '--json'])).token as string;
    const refused = await runStoa(['--url', server.url, '--token', token, 'doctor']);
    expect([refused.code, refused.stderr.trim()]).toEqual([1, 'error forbidden: only an installation administrator may run the doctor']);
  });

  it('runs in local mode on the data folder, and --repair leaves nothing to fix', async () => {
    await server.stop();
    const r = await stoaJson(['--data', data, 'doctor', '--repair', '--json']);
    expect(r.ok).toBe(true);
  });
});
