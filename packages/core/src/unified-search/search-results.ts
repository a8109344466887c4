import type { Ctx } from '../platform.js';
import { decodeCursor, encodeCursor } from '../files/change-cursor.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../search/index.js';
import { UNIFIED_KINDS } from './providers.js';
import { searchAll, type UnifiedHit, type UnifiedQuery } from './search-all.js';

/** Counts stop here: "100" reads "100 or more", and a count never costs more than one deepest page. */
const SEARCH_COUNT_CAP = MAX_SEARCH_LIMIT;
const CURSOR_PURPOSE = 'search-cursor';

/** One page of the one search, with how many hits each kind has and where the next page starts. */
interface SearchResults {
  hits: UnifiedHit[];
  /** Hits per kind the caller may read (up to SEARCH_COUNT_CAP), whatever `kinds` asked for. */
  counts: Record<string, number>;
  nextCursor: string | null;
}

/**
 * A page of `searchAll` for people browsing results (issue 31): the kinds asked for, counts per kind for the
 * filter chips, and an opaque cursor. Each count is a `searchAll` of that kind alone, so it goes through the same
 * visibility filter as the hits: a count never includes what the caller may not read. Cursors are the search's
 * own (a purpose key of their own), bound to the project, so they are refused elsewhere and say nothing.
 *
 * @example
 * const first = await searchResults(ctx, { query: 'refund', limit: 20 });
 * const next = await searchResults(ctx, { query: 'refund', limit: 20, cursor: first.nextCursor! });
 */
export async function searchResults(ctx: Ctx, q: Omit<UnifiedQuery, 'offset'> & { cursor?: string }): Promise<SearchResults> {
  const offset = q.cursor ? await decodeCursor(ctx, q.cursor, CURSOR_PURPOSE) : 0;
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  // One more than the page tells whether another page follows.
  const page = await searchAll(ctx, { ...q, limit: Math.min(MAX_SEARCH_LIMIT, limit + 1), offset });
  const more = limit === MAX_SEARCH_LIMIT ? page.length === limit : page.length > limit;
  const counts: Record<string, number> = {};
  // Counting needs which documents match, not their snippets: no bodies are read for the counts.
  for (const kind of UNIFIED_KINDS)
    counts[kind] = (await searchAll(ctx, { query: q.query, kinds: [kind], limit: SEARCH_COUNT_CAP, mode: q.mode }, { snippets: false })).length;
  return { hits: page.slice(0, limit), counts, nextCursor: more ? await encodeCursor(ctx, offset + limit, CURSOR_PURPOSE) : null };
}
