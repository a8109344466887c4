import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyOnnxModelFolder, type TinyOnnxModel } from '../packages/core/src/embeddings/tiny-onnx-model.js';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

/**
 * The local ONNX embeddings provider through the real `stoa serve` (the compiled binary, ONNX Runtime loaded
 * from node_modules at run time) and HTTP, on the tiny test model folder built at test time.
 */
describe('hybrid search over HTTP with a local ONNX model folder (STOA_EMBEDDINGS_MODEL_PATH)', { timeout: 120_000 }, () => {
  let model: TinyOnnxModel;
  let server: StoaServer;
  let broken: StoaServer;
  let plain: StoaServer;
  const brokenFolder = mkdtempSync(join(tmpdir(), 'stoa-onnx-empty-'));

  const api = (s: StoaServer, path: string, init: RequestInit = {}) =>
    fetch(`${s.url}/api/v1/projects/default${path}`, { ...init, headers: { authorization: `Bearer ${s.adminToken}`, ...init.headers } });
  const putFile = (s: StoaServer, path: string, text: string) => api(s, `/files/content?path=${encodeURIComponent(path)}`, { method: 'PUT', body: text });
  const understand = async (s: StoaServer, path: string) =>
    (await (await api(s, '/docs/understand', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path }) })).json()) as {
      status: string;
      vectorIndexStatus: string;
      vectorIndexError: string | null;
    };
  const search = async (s: StoaServer, q: string) => {
    const res = await api(s, `/search?${q}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    model = tinyOnnxModelFolder();
    [server, broken, plain] = await Promise.all([
      startStoaServer({ env: { STOA_EMBEDDINGS_MODEL_PATH: model.path } }),
      startStoaServer({ env: { STOA_EMBEDDINGS_MODEL_PATH: brokenFolder } }),
      startStoaServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), broken?.stop(), plain?.stop()]);
    model?.cleanup();
    rmSync(brokenFolder, { recursive: true, force: true });
  });

  it('understood documents say vectorIndexStatus ready; search finds by meaning and by both', async () => {
    expect((await putFile(server, 'garage/notes.md', 'The automobile needs new tyres.')).status).toBeLessThan(300);
    expect((await putFile(server, 'kitchen/menu.md', 'Soup of the day and lunch menu.')).status).toBeLessThan(300);
    expect(await understand(server, 'garage/notes.md')).toMatchObject({ status: 'ready', vectorIndexStatus: 'ready', vectorIndexError: null });
    // The files' own search documents are embedded by the server's background pass (every 2 s): poll.
    let hits: any[] = [];
    for (let i = 0; i < 80 && hits[0]?.path !== 'garage/notes.md'; i++) {
      hits = (await search(server, 'q=vehicle&mode=vector&kinds=file')).body;
      if (hits[0]?.path !== 'garage/notes.md') await new Promise((r) => setTimeout(r, 250));
    }
    expect(hits[0]).toMatchObject({ path: 'garage/notes.md', matchedBy: ['vector'] });
    const hybrid = await search(server, 'q=automobile%20tyres');
    expect(hybrid.status).toBe(200);
    expect(hybrid.body[0]).toMatchObject({ path: 'garage/notes.md', matchedBy: ['lexical', 'vector'] });
    const docs = (await (await api(server, '/docs/search?q=car&mode=vector')).json()) as any[];
    expect(docs[0]).toMatchObject({ path: 'garage/notes.md' });
  });

  it('the CLI in local mode embeds what is pending before a search, with the same model', async () => {
    const data = mkdtempSync(join(tmpdir(), 'stoa-onnx-local-'));
    try {
      const env = { STOA_EMBEDDINGS_MODEL_PATH: model.path };
      await stoaJson(['--data', data, 'wiki', 'put', 'fleet/rules', 'Every automobile is washed on Fridays.', '--json'], { env });
      const hits = await stoaJson(['--data', data, 'search', 'car', '--mode', 'vector', '--json'], { env });
      expect(hits.map((h: any) => [h.path, h.matchedBy])).toEqual([['fleet/rules', ['vector']]]);
      const gone = await runStoa(['--data', data, 'search', 'car', '--mode', 'vector'], { env: { STOA_EMBEDDINGS_MODEL_PATH: join(data, 'no-model') } });
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain('the model folder (STOA_EMBEDDINGS_MODEL_PATH) does not exist');
      expect(gone.stderr).not.toContain(data);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync('/proc/self/maps'))('ONNX Runtime is loaded into the server that uses it, and never into one without the variable', async () => {
    const mapsOf = (s: StoaServer) => readFileSync(`/proc/${s.pid}/maps`, 'utf8');
    expect((await search(server, 'q=car&mode=vector')).status).toBe(200);
    expect(mapsOf(server)).toContain('libonnxruntime');
    expect((await putFile(plain, 'garage/notes.md', 'The automobile needs new tyres.')).status).toBeLessThan(300);
    expect(await understand(plain, 'garage/notes.md')).toMatchObject({ status: 'ready', vectorIndexStatus: 'unavailable' });
    expect((await search(plain, 'q=automobile')).body).toHaveLength(1);
    expect(mapsOf(plain)).not.toContain('libonnxruntime');
  });

  it('a folder without a model: vectorIndexStatus failed with the reason (no host path), and search answers by words', async () => {
    expect((await putFile(broken, 'fleet/notes.md', 'The automobile needs new tyres.')).status).toBeLessThan(300);
    const s = await understand(broken, 'fleet/notes.md');
    expect(s).toMatchObject({ status: 'ready', vectorIndexStatus: 'failed' });
    expect(s.vectorIndexError).toBe('the embedding model cannot be used: the model folder has neither onnx/model.onnx nor model.onnx');
    const hybrid = await search(broken, 'q=automobile');
    expect(hybrid.status).toBe(200);
    expect(hybrid.body.map((h: any) => [h.path, h.matchedBy])).toEqual([['fleet/notes.md', ['lexical']]]);
    const vector = await search(broken, 'q=automobile&mode=vector');
    expect(vector.status).toBe(503);
    expect(JSON.stringify(vector.body)).toContain('the model folder has neither onnx/model.onnx');
    expect(JSON.stringify(vector.body)).not.toContain(brokenFolder);
    expect(broken.stderr()).not.toMatch(/background embedding failed/);
  });
});
