/**
 * `stoa docs …` as a user runs it (§7, R6, B4): understand a PDF and a Markdown file, page through chunks,
 * search with citations, validate them after the files change — in local mode and against a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePdf } from '../packages/core/src/understanding/test-documents.js';
import { runStoa } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

let dir: string;
let server: StoaServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stoa-docs-'));
  await writeFile(join(dir, 'lease.pdf'), makePdf(['Lease agreement for the warehouse', 'Rent is due on the first day of each month']));
  await writeFile(join(dir, 'tenancy.pdf'), makePdf(['Tenancy terms', 'The landlord answers within a week.']));
  await writeFile(join(dir, 'policy.md'), 'Refunds are paid within 14 days.\n\nShipping is free over 50 euros.');
  server = await startStoaServer();
});

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const modes = () => [
  { name: 'local', args: ['--data', join(dir, 'data')] },
  { name: 'remote', args: ['--url', server.url, '--token', server.adminToken] },
];

describe.each(['local', 'remote'])('stoa docs (%s mode)', (mode) => {
  const stoa = (...a: string[]) => runStoa([...modes().find((m) => m.name === mode)!.args, ...a]);

  it('understands, pages, searches with citations and validates them', { timeout: 240_000 }, async () => {
    expect((await stoa('files', 'put', join(dir, 'lease.pdf'), 'legal/lease.pdf')).code).toBe(0);
    expect((await stoa('files', 'put', join(dir, 'policy.md'), 'kb/policy.md')).code).toBe(0);
    const u = await stoa('docs', 'understand', 'legal/lease.pdf', '--wait', '--json');
    expect(u.code).toBe(0);
    expect(JSON.parse(u.stdout)).toMatchObject({ status: 'ready', vectorIndexStatus: 'unavailable', path: 'legal/lease.pdf' });
    expect((await stoa('docs', 'understand', 'kb/policy.md', '--json')).code).toBe(0);
    const status = JSON.parse((await stoa('docs', 'status', 'kb/policy.md', '--json')).stdout);
    expect(status).toMatchObject({ status: 'ready', version: 1 });
    const chunks = JSON.parse((await stoa('docs', 'chunks', 'legal/lease.pdf', '--page', '1', '--json')).stdout);
    expect(chunks.chunks.map((c: { page: number }) => c.page)).toEqual([1, 2]);
    const hits = JSON.parse((await stoa('docs', 'search', 'rent due', '--json')).stdout);
    expect(hits[0]).toMatchObject({ path: 'legal/lease.pdf', page: 2, version: 1 });
    expect(typeof hits[0].snippet).toBe('string');
    expect(typeof hits[0].score).toBe('number');
    const only = JSON.parse((await stoa('docs', 'search', 'refunds', '--file', 'kb/policy.md', '--json')).stdout);
    expect(only.every((h: { path: string }) => h.path === 'kb/policy.md')).toBe(true);
    const ref = `${only[0].fileAssetId}:${only[0].chunkId}`;
    expect(JSON.parse((await stoa('docs', 'validate', ref, '--json')).stdout)[0].status).toBe('valid');
    await writeFile(join(dir, 'policy2.md'), 'Refunds are no longer offered.');
    expect((await stoa('files', 'put', join(dir, 'policy2.md'), 'kb/policy.md')).code).toBe(0);
    expect(JSON.parse((await stoa('docs', 'validate', ref, '--json')).stdout)[0]).toMatchObject({ status: 'changed', currentVersion: 2 });
  });

  it('the one search finds an uploaded PDF by its text, without a manual step', { timeout: 240_000 }, async () => {
    expect((await stoa('files', 'put', join(dir, 'tenancy.pdf'), 'contracts/tenancy.pdf')).code).toBe(0);
    // Local mode parses what was uploaded before the search; a server parses it in its background pass.
    let hits: Array<{ kind: string; path: string; citation?: { page: number } }> = [];
    for (let tries = 0; tries < 120 && hits.length === 0; tries++) {
      if (tries > 0) await new Promise((r) => setTimeout(r, 500));
      hits = JSON.parse((await stoa('search', 'landlord', '--json')).stdout);
    }
    expect(hits).toEqual([expect.objectContaining({ kind: 'document', path: 'contracts/tenancy.pdf', citation: expect.objectContaining({ page: 2 }) })]);
    const text = await stoa('search', 'landlord');
    expect(text.stdout).toMatch(/^\[document\] contracts\/tenancy\.pdf — tenancy\.pdf \[version 1, page 2; fa_\S+:ch_\S+\]/);
  });

  it('answers bad input with a stable code', { timeout: 120_000 }, async () => {
    const bad = await stoa('docs', 'validate', 'not-a-reference');
    expect(bad.code).toBe(2);
    const missing = await stoa('docs', 'status', 'nope.md');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error not_found: /);
    const limit = await stoa('docs', 'search', 'x', '--limit', '0');
    expect(limit.code).toBe(2);
  });
});
