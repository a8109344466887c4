import type { IncomingMessage } from 'node:http';

/**
 * What `StoaClient.call` reads of an answer: the status and the text. A JSON call needs nothing more, so remote
 * mode sends its JSON calls with node:http(s) instead of the global fetch. On Node 20 the first fetch loads and
 * compiles undici (≈ 25 ms of CPU and ≈ 40 MB of memory), and its pooled connection keeps the process alive
 * ≈ 50 ms after the command has printed: most of the difference between `stoa files ls` and `node -e 0`.
 * Uploads and downloads (streams, redirects to storage) keep the global fetch.
 */
interface JsonAnswer {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}

/** Decodes a compressed body (the server compresses JSON answers above 1 KB when asked). */
async function decoded(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  if (!encoding || encoding === 'identity') return body;
  const zlib = await import('node:zlib');
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  throw new Error(`unsupported content-encoding "${encoding}"`);
}

function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.once('end', () => resolve(Buffer.concat(chunks)));
    res.once('error', reject);
  });
}

/**
 * A fetch for JSON calls: a string body or none, the answer read whole. Anything else (a stream body) and any
 * redirect go to the global fetch, which knows every case; connection errors keep Node's codes (ECONNREFUSED…),
 * which the CLI's error report already names.
 */
export const jsonFetch = (async (input: string | URL | Request, init: RequestInit = {}): Promise<JsonAnswer | Response> => {
  if (typeof input !== 'string' && !(input instanceof URL)) return fetch(input, init);
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return fetch(input, init);
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const headers: Record<string, string> = { 'accept-encoding': 'br, gzip', ...(init.headers as Record<string, string> | undefined) };
  const body = init.body ?? undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers, signal: init.signal ?? undefined }, resolve);
    req.once('error', reject);
    req.end(body);
  });
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400 && res.headers.location) {
    res.resume();
    return fetch(input, init);
  }
  const bytes = await decoded(await readAll(res), res.headers['content-encoding']);
  return { ok: status >= 200 && status < 300, status, text: async () => bytes.toString('utf8') };
}) as unknown as typeof fetch;
