import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDbKinds } from '@stoa/db/testing';
import '../unified-search/index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Platform } from '../platform.js';
import { putFile } from '../files/put-file.js';
import { putPage } from '../wiki/put-page.js';
import { searchAll } from '../unified-search/search-all.js';
import { understandFile } from '../understanding/assets.js';
import { loadConfig } from '../config.js';
import { embedPending } from './embed-pending.js';
import { localOnnxEmbeddings } from './onnx-provider.js';
import { EmbeddingError, type EmbeddingProvider } from './provider.js';
import { tinyOnnxModelFolder, TINY_MODEL_CONCEPTS, type TinyOnnxModel } from './tiny-onnx-model.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const onnx = (modelPath: string) => localOnnxEmbeddings({ kind: 'onnx', modelPath, batchSize: 4 });

describe('the local ONNX embeddings provider, on the tiny test model run by ONNX Runtime', () => {
  let a: TinyOnnxModel;
  let b: TinyOnnxModel;
  const providers: EmbeddingProvider[] = [];
  const open = (path: string) => {
    const p = onnx(path);
    providers.push(p);
    return p;
  };
  const scratch = mkdtempSync(join(tmpdir(), 'stoa-onnx-provider-'));

  beforeAll(() => {
    a = tinyOnnxModelFolder();
    b = tinyOnnxModelFolder({ variant: 'b' });
  });
  afterAll(async () => {
    for (const p of providers) await p.close?.();
    a?.cleanup();
    b?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('embeds through the graph: unit vectors of its width, related words together, padding without effect', async () => {
    const p = open(a.path);
    const words = TINY_MODEL_CONCEPTS.flat();
    const vectors = await p.embed(words);
    expect(vectors.every((v) => v.length === a.dims && Math.abs(dot(v, v) - 1) < 1e-5)).toBe(true);
    // Each word's nearest other word is one of its own group: the rows of the matrix, not the text, decide.
    for (const [i, w] of words.entries()) {
      const others = words.map((o, j) => ({ o, s: dot(vectors[i]!, vectors[j]!) })).filter(({ o }) => o !== w);
      const nearest = others.sort((x, y) => y.s - x.s)[0]!.o;
      expect(TINY_MODEL_CONCEPTS.find((g) => g.includes(w))).toContain(nearest);
    }
    // In one batch, short texts are padded to the longest: their vectors are those they have alone.
    const texts = ['automobile', 'The vehicle needs new tyres and a reimbursement of the money', 'lease'];
    const batch = await p.embed(texts);
    for (const [i, t] of texts.entries()) expect(dot(batch[i]!, (await p.embed([t]))[0]!)).toBeCloseTo(1, 5);
    expect(await p.embed([])).toEqual([]);
  });

  it('reads at most the tokenizer’s model_max_length tokens, keeping [SEP]', async () => {
    const p = open(a.path);
    const long = `car ${'refund '.repeat(200)}`;
    const [v] = await p.embed([long]);
    // 32 tokens: [CLS] car, 29 refunds, [SEP] — the refund direction dominates, the car one is still there.
    expect(v![1]! / v![0]!).toBeCloseTo(29, 0);
    // Only a prefix of a long text is tokenised; the vector is still that of its first 32 tokens.
    const start = `${'holiday doctor '.repeat(14)}lease car`;
    const [whole] = await p.embed([`${start} ${'car '.repeat(300)}`]);
    const [first] = await p.embed([start]);
    expect(dot(whole!, first!)).toBeCloseTo(1, 6);
    const [shorter] = await p.embed([`${'holiday doctor '.repeat(14)}lease`]);
    expect(dot(shorter!, first!)).toBeLessThan(0.9999);
  });

  it('names the model by its files: another matrix is another model with other vectors; a copy is the same model', async () => {
    const pa = open(a.path);
    const pb = open(b.path);
    expect(await pa.model()).toMatch(/^onnx:stoa-tiny-onnx-test-fixture@[0-9a-f]{16}$/);
    expect(await pb.model()).not.toBe(await pa.model());
    const [va] = await pa.embed(['automobile']);
    const [vb] = await pb.embed(['automobile']);
    expect(dot(va!, vb!)).toBeLessThan(0.5);
    const [cb] = await pb.embed(['car']);
    expect(dot(vb!, cb!)).toBeGreaterThan(0.9);
    const copy = join(scratch, 'copy');
    cpSync(a.path, copy, { recursive: true });
    expect(await open(copy).model()).toBe(await pa.model());
    // A config saved from a local path names the model by its last part: no host path is stored or shown.
    writeFileSync(join(copy, 'config.json'), JSON.stringify({ _name_or_path: '/home/someone/models/my-encoder/' }));
    expect(await open(copy).model()).toBe((await pa.model()).replace('stoa-tiny-onnx-test-fixture', 'my-encoder'));
  });

  it('a missing or broken folder: a clear reason without host paths, and a new try once its files change', async () => {
    const missing = open(join(scratch, 'nowhere'));
    await expect(missing.model()).rejects.toThrow(/model folder .* does not exist/);

    const broken = join(scratch, 'broken');
    cpSync(a.path, broken, { recursive: true });
    writeFileSync(join(broken, 'onnx', 'model.onnx'), 'this is not an ONNX graph');
    const p = open(broken);
    const error = await p.model().then(
      () => null,
      (e: unknown) => e as EmbeddingError,
    );
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error!.message).toMatch(/^onnx\/model\.onnx could not be loaded by ONNX Runtime: /);
    expect(error!.message).not.toContain(scratch);
    expect(error!.message).not.toContain(tmpdir());
    await expect(p.embed(['car'])).rejects.toThrow(/could not be loaded/);
    // Fixed in place: the next use sees the change and loads it.
    cpSync(join(a.path, 'onnx', 'model.onnx'), join(broken, 'onnx', 'model.onnx'));
    expect(await p.model()).toBe(await open(a.path).model());

    const noTokenizer = join(scratch, 'no-tokenizer');
    cpSync(a.path, noTokenizer, { recursive: true });
    rmSync(join(noTokenizer, 'tokenizer.json'));
    await expect(open(noTokenizer).model()).rejects.toThrow('the model folder has no tokenizer.json');
  });

  it('STOA_EMBEDDINGS_MODEL_PATH configures it (resolved, batch 16 unless set); with STOA_EMBEDDINGS_URL too it is refused', () => {
    expect(loadConfig({ env: { STOA_EMBEDDINGS_MODEL_PATH: a.path, STOA_EMBEDDINGS_THREADS: '1' } }).embeddings).toEqual({
      kind: 'onnx',
      modelPath: a.path,
      batchSize: 16,
      threads: 1,
    });
    expect(loadConfig({ env: {} }).embeddings).toBeUndefined();
    expect(() => loadConfig({ env: { STOA_EMBEDDINGS_MODEL_PATH: a.path, STOA_EMBEDDINGS_URL: 'http://127.0.0.1:1/v1', STOA_EMBEDDINGS_MODEL: 'm' } })).toThrow(
      /not both/,
    );
  });
});

describe.each(testDbKinds())('search with the local ONNX model on %s', (kind) => {
  let model: TinyOnnxModel;
  let other: TinyOnnxModel;
  let t: TestPlatform;

  beforeAll(async () => {
    model = tinyOnnxModelFolder();
    other = tinyOnnxModelFolder({ variant: 'b' });
    t = await createTestPlatform(kind, {}, { embeddings: { kind: 'onnx', modelPath: model.path, batchSize: 3 } });
  });
  afterAll(async () => {
    await t?.cleanup();
    model?.cleanup();
    other?.cleanup();
  });

  it('understood documents are ready at once, and found by meaning as well as words', async () => {
    const ctx = await t.admin();
    await putFile(ctx, { path: 'onnx-garage/notes.md', source: 'The automobile needs new tyres.' });
    await putFile(ctx, { path: 'onnx-garage/menu.md', source: 'Soup of the day and lunch menu.' });
    expect((await understandFile(ctx, { path: 'onnx-garage/notes.md' })).vectorIndexStatus).toBe('ready');
    // The files' own search documents get theirs from the background pass.
    await embedPending(t.platform);
    const byMeaning = await searchAll(ctx, { query: 'vehicle', mode: 'vector', kinds: ['file'] });
    expect(byMeaning[0]).toMatchObject({ path: 'onnx-garage/notes.md', matchedBy: ['vector'] });
    const hybrid = await searchAll(ctx, { query: 'automobile', kinds: ['file'] });
    expect(hybrid[0]).toMatchObject({ path: 'onnx-garage/notes.md', matchedBy: ['lexical', 'vector'] });
  });

  it('another model folder: every vector is made again, stored with the new model’s name', async () => {
    const ctx = await t.admin();
    for (const [i, text] of ['A physician on holiday.', 'The lease agreement.', 'Refund policy.'].entries())
      await putPage(ctx, { path: `onnx-models/p${i}`, text });
    await embedPending(t.platform, { max: 10_000 });
    const first = await t.platform.embeddings!.model();
    const swapped: Platform = { ...t.platform, embeddings: onnx(other.path) };
    try {
      const second = await swapped.embeddings!.model();
      expect(second).not.toBe(first);
      const pass = await embedPending(swapped, { max: 10_000 });
      const total = await t.platform.db.kysely
        .selectFrom('search_vectors')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(pass.embedded).toBe(Number(total.n));
      const models = await t.platform.db.kysely.selectFrom('search_vectors').select('model').distinct().execute();
      expect(models).toEqual([{ model: second }]);
      const hits = await searchAll({ ...ctx, platform: swapped }, { query: 'doctor', mode: 'vector', kinds: ['wiki'] });
      expect(hits[0]!.path).toBe('onnx-models/p0');
    } finally {
      await swapped.embeddings!.close?.();
      await embedPending(t.platform, { max: 10_000 });
    }
  });

  it('a broken model folder: vectorIndexStatus failed with the reason, and search answers by words', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'stoa-onnx-broken-'));
    const b = await createTestPlatform(kind, {}, { embeddings: { kind: 'onnx', modelPath: broken, batchSize: 3 } });
    try {
      const ctx = await b.admin();
      await putFile(ctx, { path: 'fleet/notes.md', source: 'The automobile needs new tyres.' });
      const s = await understandFile(ctx, { path: 'fleet/notes.md' });
      expect(s).toMatchObject({ status: 'ready', vectorIndexStatus: 'failed' });
      expect(s.vectorIndexError).toBe('the embedding model cannot be used: the model folder has neither onnx/model.onnx nor model.onnx');
      expect((await embedPending(b.platform)).backingOff).toBe(true);
      const hits = await searchAll(ctx, { query: 'automobile' });
      expect(hits.map((h) => [h.path, h.matchedBy])).toEqual([['fleet/notes.md', ['lexical']]]);
      await expect(searchAll(ctx, { query: 'automobile', mode: 'vector' })).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      await b.cleanup();
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
