import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiCompatibleEmbeddings } from '../packages/core/src/embeddings/provider.js';
import { loadSentenceEncoder, startEmbeddingsServer, type EmbeddingsServer, type SentenceEncoder } from './embeddings-server.js';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};

describe('the bench embeddings server (Universal Sentence Encoder lite over the OpenAI protocol)', () => {
  let encoder: SentenceEncoder;
  let server: EmbeddingsServer;
  beforeAll(async () => {
    encoder = await loadSentenceEncoder();
    server = await startEmbeddingsServer(encoder);
  });
  afterAll(() => server.close());

  it("answers Stoa's HTTP provider with the model's own vectors, similar sentences closer than unrelated ones", async () => {
    const provider = openAiCompatibleEmbeddings({ url: server.url, model: server.model, batchSize: 8, timeoutMs: 60_000 });
    const texts = ['The cat sits on the mat.', 'A kitten is resting on a rug.', 'Stock markets fell sharply today.'];
    const [cat, kitten, stocks] = await provider.embed(texts);
    expect(cat).toHaveLength(512);
    expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, stocks!) + 0.3);
    const direct = await encoder.embed(texts);
    direct.forEach((v, i) => expect(cosine(v, [cat, kitten, stocks][i]!)).toBeCloseTo(1, 5));
  });

  it('refuses an unknown model and malformed input with 4xx', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ model: 'other', input: ['x'] })).status).toBe(404);
    expect((await post({ model: server.model, input: [1, 2] })).status).toBe(400);
    expect((await post({ model: server.model, input: [] })).status).toBe(400);
    const one = (await (await post({ model: server.model, input: 'hello' })).json()) as { data: Array<{ index: number; embedding: number[] }> };
    expect(one.data).toHaveLength(1);
    expect(one.data[0]!.embedding).toHaveLength(512);
  });
});
