import type { RouteOutput, searchRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type SearchHit = RouteOutput<typeof searchRoutes.all>[number];
export type SearchPage = RouteOutput<typeof searchRoutes.results>;

/**
 * One page of the one search over wiki pages, memory files, file contents and understood documents the caller
 * may read (B1), with counts per kind and the cursor of the next page; `signal` cancels a stale request.
 *
 * @example
 * const page = await searchResults('default', { q: 'refund', kinds: 'wiki' });
 */
export const searchResults = (project: string, input: { q: string; kinds?: string; cursor?: string }, signal?: AbortSignal) =>
  call(routeIndex.search.results, { project, ...input, limit: 20 }, signal);
