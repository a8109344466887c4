import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createToken } from '@stoa/core/testing';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, unzipInstalled, type TestApp } from '../../http/test-app.js';

const base = '/api/v1/projects/default';
const hasUnzip = unzipInstalled();

/** What Info-ZIP's unzip reads in a zip: its integrity test, and each entry's name and bytes. */
function unzipped(zip: Buffer): { ok: boolean; entries: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-zip-'));
  try {
    const file = join(dir, 'a.zip');
    writeFileSync(file, zip);
    const ok = /No errors detected/.test(execFileSync('unzip', ['-t', file], { encoding: 'utf8' }));
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const entries = Object.fromEntries(names.map((n) => [n, execFileSync('unzip', ['-p', file, n]).toString('utf8')]));
    return { ok, entries };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Many files as one zip (F12): what a person may read, checked before the first byte, read back by a real unzip.
describe.skipIf(!hasUnzip).each(testDbKinds())('zip downloads over HTTP on %s', (kind) => {
  let s: TestApp;
  let editor: string;
  let viewer: string;
  beforeAll(async () => {
    s = await createTestApp(kind, { archiveMaxFiles: 5, archiveMaxBytes: 100_000, agentReadBytes: 5_000 });
    editor = await s.tokenFor('eddie', 'editor');
    viewer = await s.tokenFor('vivi', 'viewer');
    const put = (path: string, body: string) =>
      s.app.inject({
        method: 'PUT',
        url: `${base}/files/content?path=${encodeURIComponent(path)}`,
        headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
        payload: body,
      });
    for (const [p, body] of Object.entries(files)) expect((await put(p, body)).statusCode).toBeLessThan(300);
  });
  afterAll(() => s?.close());

  const files: Record<string, string> = {
    'reports/q1.csv': 'region,total\nnorth,10\n',
    'reports/2026/summary.md': '# Summary\n\nВсё хорошо. 一切都好。\n',
    'reports/2026/raw.bin': 'x'.repeat(6_000),
    'notes/todo.txt': 'call the bank',
  };
  const archive = (token: string, body: object) =>
    s.app.inject({ method: 'POST', url: `${base}/files/archive`, headers: { ...s.auth(token), 'content-type': 'application/json' }, payload: body });

  it('zips a folder with its subfolders, names relative to it, bytes as uploaded', async () => {
    const r = await archive(viewer, { folder: 'reports' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    expect(r.headers['content-disposition']).toMatch(/attachment; filename="reports\.zip"/);
    const zip = unzipped(r.rawPayload);
    expect(zip.ok).toBe(true);
    expect(zip.entries).toEqual({
      'q1.csv': files['reports/q1.csv'],
      '2026/summary.md': files['reports/2026/summary.md'],
      '2026/raw.bin': files['reports/2026/raw.bin'],
    });
  });

  it('zips ticked files from different folders under the folder they share; a path named twice once', async () => {
    const r = await archive(viewer, { paths: ['reports/2026/summary.md', 'notes/todo.txt', 'notes/todo.txt'] });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toMatch(/filename="default\.zip"/);
    expect(unzipped(r.rawPayload).entries).toEqual({ 'reports/2026/summary.md': files['reports/2026/summary.md'], 'notes/todo.txt': files['notes/todo.txt'] });
  });

  it('refuses before sending anything: a missing file, a hostile path, nothing to zip, too many files or bytes', async () => {
    const missing = await archive(viewer, { paths: ['notes/todo.txt', 'notes/nope.txt'] });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'not_found']);
    expect(missing.headers['content-type']).toMatch(/problem\+json/);
    for (const bad of ['../etc/passwd', 'a/../../b', 'x\u0000y']) expect((await archive(viewer, { paths: [bad] })).statusCode).toBe(400);
    expect((await archive(viewer, { folder: '../..' })).statusCode).toBe(400);
    expect((await archive(viewer, { paths: [], folder: 'empty-nothing' })).statusCode).toBe(400);
    expect((await archive(viewer, { paths: 'reports/q1.csv' })).statusCode).toBe(400);
    const many = await archive(viewer, { paths: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect([many.statusCode, many.json().code]).toEqual([413, 'too_large']);
    await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?path=big/blob.bin`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(60_000, 7),
    });
    await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?path=big/blob2.bin`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(60_000, 8),
    });
    const bytes = await archive(viewer, { folder: 'big' });
    expect([bytes.statusCode, bytes.json().code]).toEqual([413, 'too_large']);
  });

  it('an agent gets only what it may read, refused as a single download would be', async () => {
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: `Zipper ${kind}`, files: 'on', read: 'own' });
    const token = (await createToken(admin, { agent: agent.id })).token;
    const own = `agents/${agent.id}/out.txt`;
    const wrote = await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?path=${encodeURIComponent(own)}`,
      headers: { ...s.auth(token), 'content-type': 'application/octet-stream' },
      payload: 'mine',
    });
    expect(wrote.statusCode).toBeLessThan(300);
    expect(unzipped((await archive(token, { paths: [own] })).rawPayload).entries).toEqual({ 'out.txt': 'mine' });
    const single = await s.app.inject({ url: `${base}/files/content?path=notes/todo.txt`, headers: s.auth(token) });
    for (const body of [{ paths: [own, 'notes/todo.txt'] }, { folder: 'notes' }, { folder: '' }]) {
      const r = await archive(token, body);
      expect(r.statusCode).toBe(single.statusCode);
      expect(r.json().code).toBe(single.json().code);
      expect(r.body).not.toContain('call the bank');
    }
    // Its read limit holds file by file, as for a single download (raw.bin is 6,000 bytes, the limit 5,000).
    const admin2 = await createAgent(admin, { name: `Reader ${kind}`, files: 'on' });
    const reader = (await createToken(admin, { agent: admin2.id })).token;
    const big = await archive(reader, { paths: ['reports/2026/raw.bin'] });
    const bigSingle = await s.app.inject({ url: `${base}/files/content?path=reports/2026/raw.bin`, headers: s.auth(reader) });
    expect([big.statusCode, big.json().code]).toEqual([bigSingle.statusCode, bigSingle.json().code]);
    expect(big.statusCode).toBeGreaterThanOrEqual(400);
  });
});
