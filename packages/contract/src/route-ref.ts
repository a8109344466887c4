import { StoaError } from './errors.js';
import type { HttpMethod } from './route.js';

/**
 * What a client needs to call a route — its id, method and path — without the route's zod schemas, so a browser
 * bundle can address every route of the table for a few bytes. `R` is the route's definition as a type only:
 * it gives the call its input and output types and never exists at run time.
 *
 * @example
 * const ref: RouteRef<typeof wikiRoutes.get> = routeIndex.wiki.get;
 */
export interface RouteRef<R = unknown> {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The request body is a byte stream (uploads), not JSON: the whole input then goes to the query string. */
  readonly rawRequest?: boolean;
  /** Type-only link to the route's definition. */
  readonly __route?: R;
}

/** A route's request: its path with parameters filled in, the query string, and the JSON body where it has one. */
export interface RouteRequest {
  /** Path below /api/v1 with its query string, e.g. "/projects/default/files/stat?path=a.md". */
  target: string;
  /** JSON body fields (POST, PUT and PATCH routes that are not raw); undefined when the route takes none. */
  body: Record<string, unknown> | undefined;
}

/**
 * Lays one input object out as the route's request, as the server reads it: fields named in the path fill it,
 * the rest go to the query string (GET, DELETE, byte-stream bodies) or to the JSON body (POST, PUT, PATCH).
 *
 * @example
 * routeRequest({ id: 'files.stat', method: 'GET', path: '/projects/{project}/files/stat' }, { project: 'default', path: 'a b.md' })
 * // { target: "/projects/default/files/stat?path=a+b.md", body: undefined }
 */
export function routeRequest(
  ref: Pick<RouteRef, 'method' | 'path' | 'rawRequest'>,
  input: Record<string, unknown>,
  inQuery = ref.method === 'GET' || ref.method === 'DELETE' || !!ref.rawRequest,
): RouteRequest {
  const rest: Record<string, unknown> = { ...input };
  let path = ref.path;
  for (const m of ref.path.matchAll(/\{([a-zA-Z0-9_]+)\}/g)) {
    const name = m[1]!;
    const v = rest[name];
    if (v === undefined || v === null) throw new StoaError('bad_request', `${name} is required`);
    path = path.replace(`{${name}}`, encodeURIComponent(String(v)));
    delete rest[name];
  }
  if (!inQuery) return { target: path, body: rest };
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const q = qs.toString();
  return { target: q ? `${path}?${q}` : path, body: undefined };
}
