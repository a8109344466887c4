import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddingDouble, type EmbeddingDouble } from '../packages/core/src/embeddings/embedding-test-double.js';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

describe('hybrid search through the doors, with an OpenAI-compatible embeddings endpoint (a test double)', { timeout: 180_000 }, () => {
  let double: EmbeddingDouble;
  const tmp = mkdtempSync(join(tmpdir(), 'stoa-hybrid-'));
  const envOf = (d: EmbeddingDouble) => ({ STOA_EMBEDDINGS_URL: d.url, STOA_EMBEDDINGS_MODEL: d.model });

  beforeAll(async () => {
    double = await startEmbeddingDouble();
  });
  afterAll(async () => {
    await double?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('stoa search --mode vector finds a page by meaning in local mode; --mode lexical does not; the output says how', async () => {
    const data = join(tmp, 'local');
    const env = envOf(double);
    await stoaJson(['--data', data, 'wiki', 'put', 'fleet/rules', 'Every automobile is washed on Fridays.', '--json'], { env });
    const byMeaning = await stoaJson(['--data', data, 'search', 'car', '--mode', 'vector', '--json'], { env });
    expect(byMeaning.map((h: any) => [h.path, h.matchedBy])).toEqual([['fleet/rules', ['vector']]]);
    expect(await stoaJson(['--data', data, 'search', 'car', '--mode', 'lexical', '--json'], { env })).toEqual([]);
    const human = await runStoa(['--data', data, 'search', 'automobile washed'], { env });
    expect(human.stdout).toMatch(/^\[wiki\] fleet\/rules — Rules {2}\(\d+\.\d+, words\+meaning\)/);
    const bad = await runStoa(['--data', data, 'search', 'car', '--mode', 'semantic'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/lexical, vector, hybrid/);
    // The same data folder without a model: search by words, and vectors asked for are refused.
    const plain = await runStoa(['--data', data, 'search', 'car', '--mode', 'vector', '--json']);
    expect(plain.code).not.toBe(0);
    expect(plain.stdout + plain.stderr).toMatch(/unavailable/);
  });

  describe('over HTTP', () => {
    let server: StoaServer;
    let plain: StoaServer;
    const get = (s: StoaServer, q: string) => fetch(`${s.url}/api/v1/projects/default/search?${q}`, { headers: { authorization: `Bearer ${s.adminToken}` } });

    beforeAll(async () => {
      [server, plain] = await Promise.all([startStoaServer({ env: envOf(double) }), startStoaServer()]);
    });
    afterAll(async () => {
      await Promise.all([server?.stop(), plain?.stop()]);
    });

    it('embeds new pages in the background and answers mode=vector and hybrid; bad modes are 400, vectors without a model 503', async () => {
      const put = await fetch(`${server.url}/api/v1/projects/default/wiki/page`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'clinic/hours', text: 'The physician sees patients in the mornings.' }),
      });
      expect(put.status).toBe(200);
      // The server's embedder runs every 2 s: poll until the page is found by meaning.
      let hits: any[] = [];
      for (let i = 0; i < 60 && hits.length === 0; i++) {
        hits = (await (await get(server, 'q=doctor&mode=vector')).json()) as any[];
        if (hits.length === 0) await new Promise((r) => setTimeout(r, 250));
      }
      expect(hits.map((h) => [h.path, h.matchedBy])).toEqual([['clinic/hours', ['vector']]]);
      const hybrid = (await (await get(server, 'q=physician%20mornings')).json()) as any[];
      expect(hybrid[0]).toMatchObject({ path: 'clinic/hours', matchedBy: expect.arrayContaining(['lexical', 'vector']) });
      const bad = await get(server, 'q=doctor&mode=semantic');
      expect(bad.status).toBe(400);
      const none = await get(plain, 'q=doctor&mode=vector');
      expect(none.status).toBe(503);
      expect(((await none.json()) as { code: string }).code).toBe('unavailable');
      const lexical = await get(plain, 'q=doctor');
      expect(lexical.status).toBe(200);
    });
  });
});
