import type { RouteOutput, searchRoutes } from '@stoa/contract';
import { api, seg } from './client.js';

export type SearchHit = RouteOutput<typeof searchRoutes.all>[number];

/**
 * One search over wiki pages, memory files and file contents the caller may read (B1).
 *
 * @example
 * const hits = await searchAll('default', 'refund');
 */
export const searchAll = (project: string, q: string, kinds?: string) =>
  api<SearchHit[]>('GET', `/projects/${seg(project)}/search`, { query: { q, kinds, limit: 50 } });
