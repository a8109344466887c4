import { StoaError } from '@stoa/contract';
import { isInside, normalizePath } from '../paths.js';
import type { Ctx } from '../platform.js';
import { searchDocs, type SearchMode } from '../search/index.js';
import { searchPlan } from '../embeddings/search-mode.js';
import { FILE_VISIBILITY } from '../unified-search/file-index.js';
import { understandingStatus, CHUNK_KIND } from './assets.js';
import { chunkReadScope } from './read-scope.js';

export const MAX_CHUNK_PAGE = 50;
export const MAX_SEARCH_HITS = 50;
export const MAX_CONTENT_LENGTH = 4000;

export interface ChunkView {
  fileAssetId: string;
  chunkId: string;
  index: number;
  version: number;
  page: number | null;
  span: { start: number; end: number };
  hash: string;
  text: string;
}

/**
 * One page of a file's chunks, pages from 1 with `hasMore` and a bounded page size (R6 `listUnderstandingChunks`).
 *
 * @example
 * const { chunks, hasMore } = await listChunks(ctx, { path: 'lease.pdf', page: 1, pageSize: 20 });
 */
export async function listChunks(
  ctx: Ctx,
  input: { path: string; page?: number; pageSize?: number },
): Promise<{ path: string; page: number; pageSize: number; hasMore: boolean; chunks: ChunkView[] }> {
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1) throw new StoaError('bad_request', 'page must be a positive integer (pages start at 1)');
  if (input.pageSize !== undefined && (!Number.isInteger(input.pageSize) || input.pageSize < 1))
    throw new StoaError('bad_request', 'page size must be a positive integer');
  // The host caps the page (R6): a larger page is answered at the cap, with hasMore, never refused.
  const pageSize = Math.min(input.pageSize ?? 20, MAX_CHUNK_PAGE);
  const s = await understandingStatus(ctx, input.path);
  const rows = await ctx.platform.db.kysely
    .selectFrom('doc_chunks')
    .selectAll()
    .where('asset_id', '=', s.fileAssetId)
    .where('version', '=', s.version)
    .orderBy('idx')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    path: s.path,
    page,
    pageSize,
    hasMore: rows.length > pageSize,
    chunks: rows.slice(0, pageSize).map((r) => ({
      fileAssetId: s.fileAssetId,
      chunkId: r.id,
      index: r.idx,
      version: r.version,
      page: r.page,
      span: { start: r.start_offset, end: r.end_offset },
      hash: r.content_hash,
      text: r.text,
    })),
  };
}

export interface ChunkHit {
  path: string;
  title: string;
  snippet: string;
  score: number;
  fileAssetId: string;
  chunkId: string;
  version: number;
  page: number | null;
  span: { start: number; end: number };
  hash: string;
  /** The chunk's text, cut to `contentLength`. */
  content: string;
  /** Which rankings found it: `lexical`, `vector`, or both (hybrid). */
  matchedBy: Array<'lexical' | 'vector'>;
}

/**
 * Searches document chunks the caller may read, best first (R6 `searchUnderstandingChunks`): hybrid (words and
 * meaning fused) where an embedding model is configured, lexical where not, or the `mode` asked for (see
 * `searchPlan`). Each hit is a citation: file, version, span and content hash (B4).
 */
export async function searchChunks(
  ctx: Ctx,
  input: { query: string; file?: string; limit?: number; contentLength?: number; mode?: SearchMode },
): Promise<ChunkHit[]> {
  if (input.limit !== undefined && (!Number.isInteger(input.limit) || input.limit < 1)) throw new StoaError('bad_request', 'limit must be a positive integer');
  if (input.contentLength !== undefined && (!Number.isInteger(input.contentLength) || input.contentLength < 0))
    throw new StoaError('bad_request', 'content length must be a non-negative integer');
  // The host caps the number of hits and each chunk's content (R6): more is answered at the cap, never refused.
  const limit = Math.min(input.limit ?? 10, MAX_SEARCH_HITS);
  const contentLength = Math.min(input.contentLength ?? 1000, MAX_CONTENT_LENGTH);
  const scope = chunkReadScope(ctx);
  const pathPrefix: string | undefined = scope ? `${scope}/` : undefined;
  let file: string | undefined;
  if (input.file) {
    file = normalizePath(input.file);
    if (!isInside(file, scope)) throw new StoaError('forbidden', `"${file}" is outside what you may read`);
  }
  const plan = await searchPlan(ctx.platform, input.query, input.mode);
  const hits = await searchDocs(ctx.platform.db, {
    ...plan,
    projectId: ctx.project.id,
    query: input.query,
    kinds: [CHUNK_KIND],
    visibility: [FILE_VISIBILITY],
    pathPrefix: file ?? pathPrefix,
    limit: file ? 100 : limit,
  });
  const wanted = file ? hits.filter((h) => h.path === file).slice(0, limit) : hits;
  if (wanted.length === 0) return [];
  const rows = await ctx.platform.db.kysely
    .selectFrom('doc_chunks')
    .selectAll()
    .where(
      'id',
      'in',
      wanted.map((h) => h.refId),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.flatMap((h) => {
    const r = byId.get(h.refId);
    if (!r) return [];
    return [
      {
        path: h.path,
        title: h.title,
        snippet: h.snippet,
        score: h.score,
        fileAssetId: r.asset_id,
        chunkId: r.id,
        version: r.version,
        page: r.page,
        span: { start: r.start_offset, end: r.end_offset },
        hash: r.content_hash,
        content: r.text.slice(0, contentLength),
        matchedBy: h.matchedBy,
      },
    ];
  });
}
