import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { inputMax } from './limits.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP operation, the single source of truth for its door: the server validates requests with `input`,
 * the OpenAPI document is generated from it, the SDK builds requests from it, and the CLI's local mode calls
 * the same handler in-process.
 *
 * `input` is one object: fields named in `path` (`{name}`) come from the path, the rest from the query string
 * (GET, DELETE) or the JSON body (POST, PUT, PATCH). `raw` routes stream bytes instead of JSON (uploads,
 * downloads); their handlers are written by hand but are still described here.
 *
 * @example
 * export const statFileRoute = defineRoute({
 *   id: 'files.stat', method: 'GET', path: '/projects/{project}/files/stat', summary: 'Metadata of one file',
 *   input: z.object({ project: z.string(), path: z.string() }), output: FileSchema,
 * });
 */
export interface RouteDef<I extends z.ZodObject<any> = z.ZodObject<any>, O extends z.ZodType = z.ZodType> {
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  input: I;
  output: O;
  /** No bearer token needed (health, OpenAPI, login). */
  public?: boolean;
  /** Request or response body is a byte stream, not JSON. */
  raw?: { request?: string; response?: string };
  /** HTTP status of success (200 by default; 201 for creations). */
  status?: number;
  /**
   * Errors particular to this route, beyond those every route may answer and those its input implies
   * (see `routeErrors`): e.g. already_exists for a creation.
   */
  errors?: ErrorCode[];
}

export function defineRoute<I extends z.ZodObject<any>, O extends z.ZodType>(def: Omit<RouteDef<I, O>, 'tags'> & { tags?: string[] }): RouteDef<I, O> {
  return { tags: [def.id.split('.')[0]!], ...def };
}

export type RouteInput<R> = R extends RouteDef<infer I, any> ? z.input<I> : never;
export type RouteOutput<R> = R extends RouteDef<any, infer O> ? z.output<O> : never;
/** The input as a handler sees it, after validation and coercion. */
export type RouteParsedInput<R> = R extends RouteDef<infer I, any> ? z.output<I> : never;

/** Names of the `{param}` segments of a route path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-zA-Z0-9_]+)\}/g)].map((m) => m[1]!);
}

/** The project every project-scoped route takes as its first path parameter: a name or an ID. */
export const projectParam = z
  .string()
  .max(inputMax.name)
  .min(1)
  .describe('Project name or ID (a fresh installation has "default"), or the ID of a volume beyond projects (vol_…, from POST /volumes)');
