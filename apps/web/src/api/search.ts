import type { RouteOutput, searchRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type SearchHit = RouteOutput<typeof searchRoutes.all>[number];

/**
 * One search over wiki pages, memory files, file contents and understood documents the caller may read (B1).
 *
 * @example
 * const hits = await searchAll('default', 'refund');
 */
export const searchAll = (project: string, q: string, kinds?: string) => call(routeIndex.search.all, { project, q, kinds, limit: 50 });
