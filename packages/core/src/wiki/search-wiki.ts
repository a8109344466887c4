import { SEARCH_OFFSET_MAX } from '@stoa/contract';
import { searchDocs, type SearchHit } from '../search/index.js';
import type { Ctx } from '../platform.js';
import { WIKI_KIND } from './page-store.js';
import { wikiViewer } from './visibility.js';
import { normalizeWikiPath } from './wiki-paths.js';

export interface WikiSearchHit {
  path: string;
  title: string;
  /** Text around the matches; `highlights` are [start, end) offsets of matched words in it. */
  snippet: string;
  highlights: Array<[number, number]>;
  /** Higher is better (BM25, title weighted above text). */
  score: number;
  updated: string;
}

/** The wiki form of a search hit. */
export function toWikiHit(h: SearchHit): WikiSearchHit {
  return { path: h.path, title: h.title, snippet: h.snippet, highlights: h.highlights, score: h.score, updated: h.updatedAt };
}

/**
 * Searches the wiki pages the caller can see by their words, best first, each with a snippet (W4).
 * Works in any language the search module tokenises: Chinese without spaces, Russian word forms, English stems.
 *
 * @example
 * await searchWiki(ctx, { query: '数据库' }) // [{ path: 'docs/db', title: '数据库指南', snippet: '…', score: 3.1, … }]
 */
export async function searchWiki(ctx: Ctx, input: { query: string; prefix?: string; limit?: number; offset?: number }): Promise<WikiSearchHit[]> {
  const viewer = await wikiViewer(ctx);
  // Read-your-writes: the index of every page change committed before this search is written first (outbox/drain.ts).
  await ctx.platform.outbox.settle(ctx.project.id);
  const pathPrefix = input.prefix && input.prefix.trim() !== '' ? normalizeWikiPath(input.prefix) : undefined;
  const hits = await searchDocs(ctx.platform.db, {
    projectId: ctx.project.id,
    query: input.query,
    kinds: [WIKI_KIND],
    visibility: viewer.visibility,
    pathPrefix,
    limit: input.limit,
    offset: input.offset === undefined ? undefined : Math.min(SEARCH_OFFSET_MAX, input.offset),
  });
  return hits.map(toWikiHit);
}
