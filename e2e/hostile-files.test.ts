/**
 * Hostile files made by the test (issue 9), sent to a real `stoa serve`: a DOCX zip bomb (honest and lying
 * about its sizes), PDFs whose content stream inflates to 1 GB through Flate or LZW (issue 27), JSON nested 100,000 deep and a PDF whose page tree of 20,000 pages makes the parser run
 * out of time. The server keeps answering while they are parsed, each ends `failed` with a stable code and a
 * reason, and a restart neither crashes nor parses a file beyond its attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, openPlatform } from '@stoa/core';
import { makeDocxBomb, makeNestedJson, makePdfFlateBomb, makePdfLzwBomb, makePdfPageTree } from '../packages/core/src/understanding/test-documents.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const TOKEN = 'hostile-files-admin-token-0123456789';
const env = {
  STOA_ADMIN_TOKEN: TOKEN,
  // These files are understood when the test asks (its first attempt is the one it checks); the server's own
  // pass still makes the retries.
  STOA_AUTO_UNDERSTAND: 'false',
  STOA_PARSE_MAX_UNPACKED_BYTES: String(8 << 20),
  STOA_PARSE_MAX_DEPTH: '200',
  // No page cap here: the page tree must reach the parser, whose time limit then ends it.
  STOA_PARSE_MAX_PAGES: '100000',
  STOA_PARSE_TIMEOUT_MS: '1500',
  STOA_PARSE_MAX_ATTEMPTS: '2',
};

let dataDir: string;
let server: StoaServer;

const api = (path: string) => `${server.url}/api/v1/projects/default${path}`;
const auth = { authorization: `Bearer ${TOKEN}` };

async function put(path: string, body: Buffer): Promise<void> {
  const r = await fetch(api(`/files/content?path=${encodeURIComponent(path)}`), { method: 'PUT', headers: auth, body: new Uint8Array(body) });
  expect(r.status).toBeLessThan(300);
}

async function understand(path: string): Promise<any> {
  const r = await fetch(api('/docs/understand'), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ path }) });
  expect(r.status).toBe(200);
  return r.json();
}

async function status(path: string): Promise<any> {
  const r = await fetch(api(`/docs/status?path=${encodeURIComponent(path)}`), { headers: auth });
  expect(r.status).toBe(200);
  return r.json();
}

/** Polls the status until it is no longer pending, checking on each round that the server still answers. */
async function settled(path: string): Promise<{ final: any; healthChecks: number }> {
  let healthChecks = 0;
  for (;;) {
    const h = await fetch(`${server.url}/api/v1/health`);
    expect(h.status).toBe(200);
    healthChecks++;
    const s = await status(path);
    if (s.status !== 'pending') return { final: s, healthChecks };
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stoa-hostile-'));
  server = await startStoaServer({ dataDir, env });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('hostile files through the HTTP server', { shuffle: false }, () => {
  it('refuses zip bombs and deep JSON with a code and a reason, at once', { timeout: 120_000 }, async () => {
    await put('bomb.docx', makeDocxBomb(1024));
    await put('lying-bomb.docx', makeDocxBomb(1024, { lie: true }));
    await put('deep.json', makeNestedJson(100_000));
    await put('bomb.pdf', makePdfFlateBomb(1024));
    await put('lzw-bomb.pdf', makePdfLzwBomb(1024));
    expect(await understand('bomb.docx')).toMatchObject({ status: 'failed', errorCode: 'too_large', attempts: 1 });
    const lying = await understand('lying-bomb.docx');
    expect(lying).toMatchObject({ status: 'failed', errorCode: 'too_large', error: 'a zip entry unpacks to more than its directory declares' });
    expect(await understand('deep.json')).toMatchObject({ status: 'failed', errorCode: 'too_complex', error: 'the JSON nests deeper than 200 levels' });
    expect(await understand('bomb.pdf')).toMatchObject({
      status: 'failed',
      errorCode: 'too_large',
      error: `the PDF's streams would unpack to more than ${8 << 20} bytes`,
    });
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
  });

  it('keeps answering while a huge PDF page tree is parsed, ends its parser on time, retries once and fails it', { timeout: 180_000 }, async () => {
    await put('pages.pdf', makePdfPageTree(20_000));
    const first = await understand('pages.pdf');
    expect(first).toMatchObject({ status: 'pending', errorCode: 'timeout', attempts: 1 });
    expect(first.error).toMatch(/^parsing took longer than 1.5 s \(attempt 1 of 2\)$/);
    // The background loop makes the second attempt; the server answers throughout.
    const { final, healthChecks } = await settled('pages.pdf');
    expect(final).toMatchObject({ status: 'failed', errorCode: 'timeout', attempts: 2 });
    expect(healthChecks).toBeGreaterThan(0);
    expect(JSON.stringify(final)).not.toContain(dataDir);
  });

  it('starts again on the same data without crashing or parsing beyond the attempts', { timeout: 180_000 }, async () => {
    await server.stop();
    // The state a process leaves when it dies during its last attempt: pending, attempts used up.
    const platform = await openPlatform(loadConfig({ dataDir, env: {} }));
    await platform.db.kysely.updateTable('doc_assets').set({ status: 'pending' }).where('path', '=', 'pages.pdf').execute();
    await platform.close();
    server = await startStoaServer({ dataDir, env });
    const { final } = await settled('pages.pdf');
    expect(final).toMatchObject({
      status: 'failed',
      errorCode: 'gave_up',
      attempts: 2,
      error: 'gave up after 2 attempts (last: parsing took longer than 1.5 s)',
    });
    expect(await status('bomb.docx')).toMatchObject({ status: 'failed', errorCode: 'too_large', attempts: 1 });
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
  });
});
