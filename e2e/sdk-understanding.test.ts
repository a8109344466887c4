import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { StoaClient, WorkspaceFiles, type FileLocator, type WorkspaceMediaFilesApi } from '@stoa/sdk';
import { filesRoutes, StoaError } from '@stoa/contract';
import { baseEnv, REPO } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const exec = promisify(execFile);

/** The code a call is refused with. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StoaError) return e.code;
    throw e;
  }
  return 'ok';
}

/** A media adapter typed with the narrow API only (seed 003): it cannot reach the rest of the runtime. */
async function storeThumbnail(files: WorkspaceMediaFilesApi<FileLocator>, png: Buffer): Promise<{ back: Buffer; deleted: boolean }> {
  const { reference } = await files.uploadBuffer(png, { filePath: 'media/thumb.png', mimeType: 'image/png' });
  const back = await files.readBuffer(reference);
  const runtime = await files.readRuntimeBuffer?.(reference);
  if (runtime && runtime.mimeType !== 'image/png') throw new Error(`unexpected type ${runtime.mimeType}`);
  await files.deleteFile?.(reference);
  return { back, deleted: files.deleteFile !== undefined };
}

describe("the SDK's file understanding and media API, through a real server (docs/sdk.md, seed 003)", { timeout: 180_000 }, () => {
  let server: StoaServer;
  let client: StoaClient;

  beforeAll(async () => {
    server = await startStoaServer();
    client = new StoaClient({ url: server.url, token: server.adminToken });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the example registers a file, pages its chunks at the host cap, searches and re-checks its citations', async () => {
    const env = baseEnv({ STOA_URL: server.url, STOA_TOKEN: server.adminToken });
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'packages/sdk/examples/understand-and-cite.ts', 'давление'], {
      cwd: REPO,
      env,
      timeout: 120_000,
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ status: 'ready', vectorIndexStatus: 'unavailable', pageSize: 50 });
    expect(out.fileAssetId).toMatch(/\S/);
    expect(out.chunks).toBe(out.chunkCount);
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits.length).toBeLessThanOrEqual(3);
    for (const h of out.hits) expect(h.content.length).toBeLessThanOrEqual(200);
    expect(out.hits[0].content).toContain('давление');
    expect(out.checks.every((c: string) => c === 'valid')).toBe(true);
  });

  it('the six understanding methods: status, pages with hasMore, caps instead of refusals, retry, validation after a change', async () => {
    const files = await WorkspaceFiles.open(client, 'default');
    const body = Array.from({ length: 40 }, (_, i) => `## Глава ${i + 1} 第${i + 1}章\n\n${`Строка главы ${i + 1}. `.repeat(40)}\n`).join('\n');
    await files.uploadBuffer(Buffer.from(body), { filePath: 'docs/руководство.md' });
    const s = await files.understandFile({ filePath: '/workspace/docs/руководство.md' });
    expect(s).toMatchObject({ path: 'docs/руководство.md', status: 'ready', version: 1 });
    expect(s.chunkCount).toBeGreaterThan(2);
    expect(await files.getUnderstandingStatus('docs/руководство.md')).toMatchObject({ fileAssetId: s.fileAssetId, chunkCount: s.chunkCount });

    // Pages from 1 with hasMore; the page size is the caller's while under the host's cap…
    const first = await files.listUnderstandingChunks('docs/руководство.md', { page: 1, pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(first.chunks.map((c) => c.index)).toEqual([0, 1]);
    const last = await files.listUnderstandingChunks({ filePath: 'docs/руководство.md', page: s.chunkCount, pageSize: 1 });
    expect(last.hasMore).toBe(false);
    // …and over it the host answers at its cap instead of refusing (seed 003: "宿主会限制页大小").
    const capped = await files.listUnderstandingChunks('docs/руководство.md', { pageSize: 51 });
    expect(capped.pageSize).toBe(50);
    expect(capped.chunks.length).toBe(Math.min(50, s.chunkCount));
    expect(capped.hasMore).toBe(s.chunkCount > 50);
    // The same over plain HTTP: no refusal for a page, hit count or excerpt over the cap.
    const raw = await fetch(`${server.url}/api/v1/projects/default/docs/chunks?path=${encodeURIComponent('docs/руководство.md')}&pageSize=1000`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as { pageSize: number }).pageSize).toBe(50);
    expect(await refusal(files.listUnderstandingChunks('docs/руководство.md', { page: 0 }))).toBe('bad_request');

    const hits = await files.searchUnderstandingChunks({ query: 'Глава', limit: 500, contentLength: 100_000 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(50);
    const one = await files.searchUnderstandingChunks({ query: '第3章', file: 'docs/руководство.md', limit: 1, contentLength: 30 });
    expect(one).toHaveLength(1);
    expect(one[0]!.content.length).toBeLessThanOrEqual(30);

    // Evidence re-checked: valid now; after the file is replaced by other text, no longer valid.
    const evidence = { fileAssetId: one[0]!.fileAssetId, chunkId: one[0]!.chunkId };
    expect((await files.validateUnderstandingReferences([evidence]))[0]).toMatchObject({ status: 'valid', path: 'docs/руководство.md' });
    await files.uploadBuffer(Buffer.from('# Другой текст\n\nничего общего\n'), { filePath: 'docs/руководство.md' });
    await files.understandFile('docs/руководство.md');
    const [after] = await files.validateUnderstandingReferences({ references: [evidence] });
    expect(after!.status).not.toBe('valid');

    // Retry is for a failed file only; a file that parsed is refused as such.
    expect(await refusal(files.retryUnderstanding('docs/руководство.md'))).toBe('bad_request');
    expect(await refusal(files.getUnderstandingStatus('docs/нет-такого.md'))).toBe('not_found');
  });

  it('a portable reference still names its file for understanding after a rename', async () => {
    const files = await WorkspaceFiles.open(client, 'default');
    const { reference } = await files.uploadBuffer(Buffer.from('# 规范\n\n工作压力验收标准。\n'), { filePath: 'specs/规范.md' });
    await client.call(filesRoutes.move, { project: 'default', from: 'specs/规范.md', to: 'specs/renamed.md' });
    expect(await files.understandFile(reference)).toMatchObject({ path: 'specs/renamed.md', status: 'ready' });
    const page = await files.listUnderstandingChunks(reference);
    expect(page.chunks[0]!.text).toContain('工作压力');
  });

  it('WorkspaceMediaFilesApi: a media adapter typed with the narrow API works with the runtime', async () => {
    const files = await WorkspaceFiles.open(client, 'default');
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4480000000049454e44ae426082',
      'hex',
    );
    const { back, deleted } = await storeThumbnail(files, png);
    expect(back.equals(png)).toBe(true);
    expect(deleted).toBe(true);
    expect(await refusal(files.readBuffer('media/thumb.png'))).toBe('not_found');
  });
});
