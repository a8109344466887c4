import type { RouteDef, RouteInput, RouteOutput } from '@stoa/contract';
// Not from the package's index, which builds every route's zod schemas when loaded: a short command pays for that.
import { StoaError, type ErrorCode } from '@stoa/contract/errors';
import { routeRequest, type RouteRef } from '@stoa/contract/route-ref';
import { Readable } from 'node:stream';

export interface ClientOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8080 */
  url: string;
  token?: string;
  /** Sent as X-Stoa-Conversation: the conversation an agent token acts in. */
  conversationId?: string;
  fetch?: typeof fetch;
}

/**
 * Typed HTTP client. Every JSON operation goes through `call(route, input)`, built from the same route table
 * the server validates with, so the two cannot drift apart.
 *
 * @example
 * const stoa = new StoaClient({ url: 'http://127.0.0.1:8080', token });
 * const { files } = await stoa.call(filesRoutes.list, { project: 'default', prefix: 'reports' });
 * // or by reference, without loading the schemas: stoa.call(routeIndex.files.list, …)
 */
export class StoaClient {
  readonly url: string;
  private readonly token?: string;
  private readonly conversationId?: string;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.url = opts.url.replace(/(?<!\/)\/+$/, '');
    this.token = opts.token;
    this.conversationId = opts.conversationId;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(this.conversationId ? { 'x-stoa-conversation': this.conversationId } : {}),
      ...extra,
    };
  }

  /** URL of a route with its path parameters filled in and, for GET/DELETE/raw routes, the rest as query. */
  routeUrl(
    route: RouteDef | RouteRef,
    input: Record<string, unknown>,
    allInQuery = route.method === 'GET' || route.method === 'DELETE' || rawRequest(route),
  ): { url: string; rest: Record<string, unknown> } {
    const { target, body } = routeRequest({ method: route.method, path: route.path, rawRequest: rawRequest(route) }, input, allInQuery);
    return { url: `${this.url}/api/v1${target}`, rest: body ?? {} };
  }

  /** Calls a JSON route; problem responses become StoaError with the server's code and message. */
  async call<R extends RouteDef>(route: R | RouteRef<R>, input: RouteInput<R>): Promise<RouteOutput<R>> {
    const { url, rest } = this.routeUrl(route, input as Record<string, unknown>);
    const hasBody = !(route.method === 'GET' || route.method === 'DELETE');
    const res = await this.fetchImpl(url, {
      method: route.method,
      headers: this.headers(hasBody ? { 'content-type': 'application/json' } : {}),
      body: hasBody ? JSON.stringify(rest) : undefined,
    });
    return (await parseResponse(res)) as RouteOutput<R>;
  }

  /** Sends a raw body (a file's bytes) to a raw route. */
  async send<R extends RouteDef>(
    route: R | RouteRef<R>,
    input: RouteInput<R>,
    body: Readable | Buffer | string,
    opts: { size?: number; headers?: Record<string, string> } = {},
  ): Promise<RouteOutput<R>> {
    const { url } = this.routeUrl(route, input as Record<string, unknown>, true);
    const res = await this.fetchImpl(url, {
      method: route.method,
      headers: this.headers({
        'content-type': 'application/octet-stream',
        ...(opts.size !== undefined ? { 'content-length': String(opts.size) } : {}),
        ...(opts.headers ?? {}),
      }),
      body: body instanceof Readable ? (Readable.toWeb(body) as any) : body,
      duplex: 'half',
    } as RequestInit);
    return (await parseResponse(res)) as RouteOutput<R>;
  }

  /** Opens a raw response route (downloads); throws StoaError on a problem response. */
  async open<R extends RouteDef>(route: R | RouteRef<R>, input: RouteInput<R>, headers: Record<string, string> = {}): Promise<Response> {
    const { url } = this.routeUrl(route, input as Record<string, unknown>, true);
    const res = await this.fetchImpl(url, { method: route.method, headers: this.headers(headers) });
    if (!res.ok && res.status !== 304) await parseResponse(res);
    return res;
  }
}

/** Whether a route (its definition or its reference) takes a byte stream as its body. */
function rawRequest(route: RouteDef | RouteRef): boolean {
  return 'raw' in route ? !!route.raw?.request : !!(route as RouteRef).rawRequest;
}

/** Parses a JSON or problem+json response; problems become StoaError. */
export async function parseResponse(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: any = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const code = (body?.code as ErrorCode) ?? (res.status === 401 ? 'unauthorized' : res.status === 404 ? 'not_found' : 'internal');
    const { type: _t, title: _ti, status: _s, code: _c, detail, instance: _i, ...details } = body ?? {};
    throw new StoaError(code, detail ?? `HTTP ${res.status}`, details);
  }
  return body;
}
