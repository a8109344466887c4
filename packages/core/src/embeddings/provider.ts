import type { OpenAiEmbeddingsConfig } from '../config.js';

/**
 * Turns texts into vectors. One implementation speaks the OpenAI-compatible `/embeddings` protocol, the other
 * runs a local ONNX model folder in-process (onnx-provider.ts); anything with the same shape can stand in.
 */
export interface EmbeddingProvider {
  /**
   * The model's name, stored with every vector: a different name means the vectors are made again. An endpoint's
   * model is named by the configuration; a local model by its files, so the first call reads and loads them.
   * Throws {@link EmbeddingError} when the model cannot be used at all (a local folder missing or broken).
   */
  model(): Promise<string>;
  /** Most texts per call. */
  readonly batchSize: number;
  /** One vector per text, in order. Throws {@link EmbeddingError}. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Releases what the provider holds (a loaded model); the platform's `close` calls it. */
  close?(): Promise<void>;
}

/**
 * Why the provider gave no vectors. `retryable`: the provider may answer later (network, time-out, 429, 5xx);
 * otherwise it refused these texts (4xx), and one text of a batch may be the cause.
 */
export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

/**
 * The provider of a configuration: an OpenAI-compatible endpoint (Ollama, vLLM, TEI, a hosted API), with a
 * time-out per request. Its answers are checked: one finite vector per text, all of one length.
 *
 * @example
 * const p = openAiCompatibleEmbeddings({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', batchSize: 32, timeoutMs: 30000 });
 * const [v] = await p.embed(['refund policy']);
 */
export function openAiCompatibleEmbeddings(config: OpenAiEmbeddingsConfig, fetchImpl: typeof fetch = fetch): EmbeddingProvider {
  return {
    model: () => Promise.resolve(config.model),
    batchSize: config.batchSize,
    async embed(texts) {
      if (texts.length === 0) return [];
      const request = () =>
        fetchImpl(`${config.url}/embeddings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
          body: JSON.stringify({ model: config.model, input: texts, encoding_format: 'float' }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      let res: Response;
      try {
        // A kept-alive connection the server closed at that moment fails at once; the request is idempotent,
        // so it is sent once more on a fresh connection before the failure counts.
        res = await request().catch((e: Error) => (e.name === 'TimeoutError' ? Promise.reject(e) : request()));
      } catch (e) {
        const timedOut = (e as Error).name === 'TimeoutError';
        // fetch says only "fetch failed"; the reason (refused, reset, DNS) is its cause.
        const cause = (e as Error & { cause?: { message?: string; code?: string } }).cause;
        const why = cause?.code ?? cause?.message;
        throw new EmbeddingError(
          timedOut ? `no answer within ${config.timeoutMs} ms` : `cannot reach the provider: ${(e as Error).message}${why ? ` (${why})` : ''}`,
          true,
        );
      }
      const body = await res.text().catch(() => '');
      if (!res.ok) {
        const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
        throw new EmbeddingError(`the provider answered ${res.status}: ${providerMessage(body)}`, retryable);
      }
      return parseVectors(body, texts.length);
    },
  };
}

/** The message of an error answer (OpenAI's `{ error: { message } }`, or the start of the body). */
function providerMessage(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (typeof m === 'string' && m) return m.slice(0, 300);
  } catch {
    /* not JSON */
  }
  return body.slice(0, 300) || 'no message';
}

function parseVectors(body: string, count: number): Float32Array[] {
  let data: unknown;
  try {
    data = (JSON.parse(body) as { data?: unknown }).data;
  } catch {
    throw new EmbeddingError('the provider answered something that is not JSON', true);
  }
  if (!Array.isArray(data) || data.length !== count)
    throw new EmbeddingError(`the provider answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} texts`, true);
  const out: Float32Array[] = new Array(count);
  for (const [i, item] of data.entries()) {
    const { embedding, index } = item as { embedding?: unknown; index?: unknown };
    const at = typeof index === 'number' ? index : i;
    if (!Array.isArray(embedding) || embedding.length === 0 || at < 0 || at >= count || out[at])
      throw new EmbeddingError('the provider answered a malformed vector', true);
    if (!embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new EmbeddingError('the provider answered a vector with non-numbers', true);
    out[at] = Float32Array.from(embedding as number[]);
  }
  if (out.some((v) => v.length !== out[0]!.length)) throw new EmbeddingError('the provider answered vectors of different lengths', true);
  return out;
}
