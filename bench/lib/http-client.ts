import http from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the response body. */
  bytes: number;
  /** The body, when `collect` was asked for. */
  body?: Buffer;
}

interface HttpOptions {
  method: string;
  headers?: Record<string, string>;
  /** A buffer, or a stream piped into the request (large uploads). */
  body?: Buffer | Readable;
  agent?: http.Agent;
  /** Keep the body in memory (small JSON answers). */
  collect?: boolean;
  /** Stream the body into this writable (large downloads); otherwise it is counted and dropped. */
  sink?: Writable;
}

/**
 * A keep-alive agent for `concurrency` parallel clients; the same client code talks to every server compared,
 * so the client's own cost is the same for all of them.
 *
 * @example
 * const agent = keepAliveAgent(16);
 */
export function keepAliveAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
}

/**
 * One HTTP request with node:http; resolves once the whole response body was read.
 *
 * @example
 * const r = await httpRequest(`${url}/x`, { method: 'PUT', body: Buffer.from('hi'), agent });
 */
export function httpRequest(url: string, opts: HttpOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (Buffer.isBuffer(opts.body)) headers['content-length'] = String(opts.body.length);
    const req = http.request(url, { method: opts.method, headers, agent: opts.agent }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      if (opts.sink) {
        res.on('data', (c: Buffer) => (bytes += c.length));
        pipeline(res, opts.sink).then(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }), reject);
        return;
      }
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (opts.collect) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, body: opts.collect ? Buffer.concat(chunks) : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body === undefined) req.end();
    else if (Buffer.isBuffer(opts.body)) req.end(opts.body);
    else pipeline(opts.body, req).catch(reject);
  });
}

/** Like httpRequest, but fails unless the status is 2xx; returns the parsed JSON body when there is one. */
export async function httpJson<T = unknown>(url: string, opts: HttpOptions): Promise<T> {
  const r = await httpRequest(url, { ...opts, collect: true });
  const text = r.body?.toString('utf8') ?? '';
  if (r.status < 200 || r.status >= 300) throw new Error(`${opts.method} ${url.split('?')[0]} → ${r.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
