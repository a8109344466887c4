import type { ErrorCode } from './errors.js';
import { pathParams, type RouteDef } from './route.js';

/** What any route may answer: a bad request, throttling, a fault, and for token routes the access errors. */
const EVERY_ROUTE: ErrorCode[] = ['bad_request', 'rate_limited', 'internal'];
const WITH_TOKEN: ErrorCode[] = ['unauthorized', 'forbidden'];

/**
 * Every error code a route can answer, in a stable order: the common ones, those its input implies (a `path`
 * may be invalid, a project or `{param}` may not exist, an expected version may be outdated), and the route's own
 * `errors`. The OpenAPI document lists them per status; a test checks the codes handlers throw are listed.
 *
 * @example
 * routeErrors(filesRoutes.move) // ['bad_request', 'rate_limited', 'internal', 'unauthorized', 'forbidden', 'not_found', 'path_invalid', …]
 */
export function routeErrors(route: RouteDef): ErrorCode[] {
  const fields = Object.keys(route.input.shape);
  const codes = new Set<ErrorCode>(EVERY_ROUTE);
  if (!route.public) for (const c of WITH_TOKEN) codes.add(c);
  // An agent naming a conversation it does not take part in is refused in every project (issue 26).
  if (route.path.includes('{project}')) codes.add('not_in_conversation');
  if (pathParams(route.path).length > 0 || fields.includes('path')) codes.add('not_found');
  if (fields.some((f) => f === 'path' || f === 'from' || f === 'to' || f === 'folder' || f === 'prefix')) codes.add('path_invalid');
  if (fields.includes('expectedVersion') || (fields.includes('base') && !route.id.startsWith('memory.'))) codes.add('version_conflict');
  if (route.id.startsWith('memory.') && fields.includes('base')) codes.add('memory_version_conflict');
  if (route.raw?.request) codes.add('too_large');
  // A JSON body over its budget (size, nesting) is refused before it is parsed (issue 27).
  if (!route.raw?.request && (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH')) {
    codes.add('too_large');
    codes.add('too_deep');
  }
  for (const c of route.errors ?? []) codes.add(c);
  return [...codes];
}
