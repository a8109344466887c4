import { searchRoutes, type RouteInput, type RouteOutput } from '@stoa/contract';
import type { RouteCaller } from './memory.js';

/** One page of the one search: its hits, counts per kind (up to 100 each) and the cursor to the next page. */
export type SearchResultsPage = RouteOutput<typeof searchRoutes.results>;

/**
 * The one search a page at a time (`GET /search/results`), following each page's opaque cursor until the last
 * page or until `max` hits have come. Counts per kind are on every page, counted among what the caller may read.
 *
 * @example
 * for await (const page of searchPages(stoa, { project: 'default', q: 'refund', kinds: 'wiki,file', limit: 50 })) {
 *   console.log(page.counts, page.hits.map((h) => h.path));
 * }
 */
export async function* searchPages(
  caller: RouteCaller,
  input: Omit<RouteInput<typeof searchRoutes.results>, 'cursor'>,
  opts: { max?: number } = {},
): AsyncGenerator<SearchResultsPage> {
  let cursor: string | undefined;
  let seen = 0;
  const max = opts.max ?? Infinity;
  do {
    const page = await caller.call(searchRoutes.results, { ...input, cursor });
    const room = max - seen;
    seen += page.hits.length;
    yield page.hits.length > room ? { ...page, hits: page.hits.slice(0, room) } : page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && seen < max);
}
