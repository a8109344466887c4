import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-project-delete-'));
const data = join(tmp, 'data');

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa projects delete (through a real server, then local mode)', { timeout: 300_000, shuffle: false }, () => {
  let server: StoaServer;
  let remote: string[];
  beforeAll(async () => {
    server = await startStoaServer({ dataDir: data, env: { STOA_ADMIN_TOKEN: 'stoa_project_delete_admin_token_0123456789' } });
    remote = ['--url', server.url, '--token', server.adminToken];
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('deletes a project only with its name confirmed, by the installation administrator, and nothing of it stays reachable', async () => {
    await stoaJson([...remote, 'projects', 'create', 'acme', '--json']);
    writeFileSync(join(tmp, 'plan.md'), 'the secret plan');
    await stoaJson([...remote, '--project', 'acme', 'files', 'put', join(tmp, 'plan.md'), 'plan.md', '--json']);
    await stoaJson([...remote, '--project', 'acme', 'members', 'add', 'ann', '--role', 'admin', '--json']);
    const ann = (await stoaJson([...remote, '--project', 'acme', 'tokens', 'create', '--user', 'ann', '--json'])).token as string;

    const unconfirmed = await runStoa([...remote, 'projects', 'delete', 'acme']);
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([2, expect.stringContaining('--confirm "acme"')]);
    const wrong = await runStoa([...remote, 'projects', 'delete', 'acme', '--confirm', 'acne', '--json']);
    expect([wrong.code, JSON.parse(wrong.stderr).error.code]).toEqual([1, 'bad_request']);
    // The project's own admin may not: only the installation's.
    const byAnn = await runStoa(['--url', server.url, '--token', ann, 'projects', 'delete', 'acme', '--confirm', 'acme', '--json']);
    expect(JSON.parse(byAnn.stderr).error.code).toBe('forbidden');
    const davBefore = await fetch(`${server.url}/projects/acme/dav/plan.md`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect([davBefore.status, await davBefore.text()]).toEqual([200, 'the secret plan']);
    const annBefore = await fetch(`${server.url}/api/v1/projects/acme/files?path=`, { headers: { authorization: `Bearer ${ann}` } });
    expect(annBefore.status).toBe(200);

    const done = await stoaJson([...remote, 'projects', 'delete', 'acme', '--confirm', 'acme', '--json']);
    expect(done).toMatchObject({ name: 'acme', deleted: true });

    const listed = (await stoaJson([...remote, 'projects', 'list', '--json'])) as Array<{ name: string }>;
    expect(listed.map((p) => p.name)).not.toContain('acme');
    const read = await runStoa([...remote, '--project', 'acme', 'files', 'get', 'plan.md', '-', '--json']);
    expect(JSON.parse(read.stderr).error.code).toBe('not_found');
    const annAfter = await fetch(`${server.url}/api/v1/projects/acme/files?path=`, { headers: { authorization: `Bearer ${ann}` } });
    expect(annAfter.status).toBe(401);
    const dav = await fetch(`${server.url}/projects/acme/dav/plan.md`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(dav.status).toBe(404);
    const audit = (await stoaJson([...remote, 'audit', '--installation', '--json'])) as Array<{ action: string; subject: string }>;
    expect(audit[0]).toMatchObject({ action: 'project.delete', subject: 'acme' });
  });

  it('works in local mode on the data folder', async () => {
    await server.stop();
    await stoaJson(['--data', data, 'projects', 'create', 'scratch', '--json']);
    const r = await stoaJson(['--data', data, 'projects', 'delete', 'scratch', '--confirm', 'scratch', '--json']);
    expect(r).toMatchObject({ name: 'scratch', deleted: true });
    const listed = (await stoaJson(['--data', data, 'projects', 'list', '--json'])) as Array<{ name: string }>;
    expect(listed.map((p) => p.name)).not.toContain('scratch');
  });
});
