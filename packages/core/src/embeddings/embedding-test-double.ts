import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test double of an embedding provider: a real HTTP server speaking the OpenAI-compatible
 * `POST /v1/embeddings` protocol, with a deterministic embedding instead of a model. Words are mapped to
 * concepts through a small table of synonyms (so "automobile" lands near "car", which no lexical search can
 * do), and each concept is hashed into a fixed dimension. It can be told to fail, to be slow, and to refuse
 * texts containing `REFUSE`, to test the embedder's back-off and recovery. Never used by the product.
 *
 * @example
 * const double = await startEmbeddingDouble();
 * const config = { url: double.url, model: double.model, batchSize: 8, timeoutMs: 2000 };
 */
export interface EmbeddingDouble {
  /** API base to configure, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  model: string;
  dims: number;
  /** Texts received, in order. */
  inputs: string[];
  /** Requests received. */
  requests: number;
  /** Answer the next `times` requests with `status` (e.g. 503, 429, 400). */
  failNext(times: number, status: number): void;
  /** Wait this long before answering every request. */
  delayMs: number;
  close(): Promise<void>;
}

const SYNONYMS: string[][] = [
  ['car', 'automobile', 'vehicle', 'auto', 'cars', 'automobiles', 'vehicles'],
  ['refund', 'reimbursement', 'repayment', 'refunds', 'reimbursed', 'money back'],
  ['holiday', 'vacation', 'leave', 'holidays', 'vacations', 'time off'],
  ['doctor', 'physician', 'medic', 'doctors', 'physicians'],
  ['contract', 'agreement', 'lease', 'contracts', 'agreements'],
];

function concepts(text: string): string[] {
  let t = text.toLowerCase();
  const out: string[] = [];
  for (const group of SYNONYMS)
    for (const phrase of group.filter((p) => p.includes(' ')))
      if (t.includes(phrase)) {
        out.push(group[0]!);
        t = t.split(phrase).join(' ');
      }
  for (const word of t.split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const group = SYNONYMS.find((g) => g.includes(word));
    out.push(group ? group[0]! : word);
  }
  return out;
}

/** The double's embedding of a text: concept counts hashed into `dims` (not normalised: the embedder must). */
function doubleEmbedding(text: string, dims: number): number[] {
  const v: number[] = Array.from({ length: dims }, () => 0);
  for (const c of concepts(text)) {
    let h = 2166136261;
    for (let i = 0; i < c.length; i++) h = Math.imul(h ^ c.charCodeAt(i), 16777619);
    const at = (h >>> 0) % dims;
    v[at] = (v[at] ?? 0) + 1;
  }
  if (!v.some((x) => x !== 0)) v[0] = 1;
  return v;
}

export async function startEmbeddingDouble(opts: { model?: string; dims?: number } = {}): Promise<EmbeddingDouble> {
  const model = opts.model ?? 'double-embed-v1';
  const dims = opts.dims ?? 256;
  let failures: { times: number; status: number } = { times: 0, status: 0 };
  const state = { inputs: [] as string[], requests: 0, delayMs: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      setTimeout(() => {
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') return answer(404, { error: { message: 'not found' } });
        if (failures.times > 0) {
          failures.times--;
          return answer(failures.status, { error: { message: `the double was told to fail with ${failures.status}` } });
        }
        let body: { model?: string; input?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          return answer(400, { error: { message: 'body is not JSON' } });
        }
        if (body.model !== model) return answer(404, { error: { message: `model "${String(body.model)}" not found` } });
        const input = typeof body.input === 'string' ? [body.input] : body.input;
        if (!Array.isArray(input) || !input.every((x) => typeof x === 'string')) return answer(400, { error: { message: 'input must be strings' } });
        if (input.some((x: string) => x.includes('REFUSE'))) return answer(400, { error: { message: 'this input is refused' } });
        state.inputs.push(...input);
        answer(200, {
          object: 'list',
          model,
          data: input.map((text: string, index: number) => ({ object: 'embedding', index, embedding: doubleEmbedding(text, dims) })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        });
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    model,
    dims,
    get inputs() {
      return state.inputs;
    },
    get requests() {
      return state.requests;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    failNext(times, status) {
      failures = { times, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
