import { docsRoutes, searchRoutes } from '@stoa/contract';
import { searchAll } from '../unified-search/search-all.js';
import { searchResults } from '../unified-search/search-results.js';
import { reindexFileContents } from '../unified-search/reindex.js';
import { listChunks, searchChunks } from '../understanding/chunks.js';
import { retryUnderstanding, understandFile, understandingStatus } from '../understanding/assets.js';
import { validateReferences } from '../understanding/validate.js';
import { changes, projectOperation, reads, type Operation } from './operation.js';

const d = docsRoutes;

const kindList = (kinds: string | undefined) =>
  kinds
    ? kinds
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
    : undefined;

/** The one search (R1–R5) and file understanding (R6). */
export const searchOperations: Operation[] = [
  projectOperation(searchRoutes.all, reads('project.read'), (ctx, i) =>
    searchAll(ctx, {
      query: i.q,
      kinds: kindList(i.kinds),
      limit: i.limit,
      offset: i.offset,
      mode: i.mode,
    }),
  ),
  projectOperation(searchRoutes.results, reads('project.read'), async (ctx, i) => {
    const { hits, counts, nextCursor } = await searchResults(ctx, { query: i.q, kinds: kindList(i.kinds), limit: i.limit, cursor: i.cursor, mode: i.mode });
    return { hits, counts: { wiki: counts.wiki ?? 0, memory: counts.memory ?? 0, file: counts.file ?? 0, document: counts.document ?? 0 }, nextCursor };
  }),
  projectOperation(searchRoutes.reindex, changes('project.admin', null, 'none'), (ctx) => reindexFileContents(ctx)),
  // Understanding changes derived data only (chunks, status), never a file: it needs read access and counts nothing.
  projectOperation(d.understand, changes('file.read', null, 'none'), (ctx, i) => understandFile(ctx, { path: i.path, parseMode: i.parseMode })),
  projectOperation(d.retry, changes('file.read', null, 'none'), (ctx, i) => retryUnderstanding(ctx, i.path)),
  projectOperation(d.status, reads('file.read'), (ctx, i) => understandingStatus(ctx, i.path)),
  projectOperation(d.chunks, reads('file.read'), (ctx, i) => listChunks(ctx, { path: i.path, page: i.page, pageSize: i.pageSize })),
  projectOperation(d.search, reads('file.read'), (ctx, i) =>
    searchChunks(ctx, { query: i.q, file: i.file, limit: i.limit, contentLength: i.contentLength, mode: i.mode }),
  ),
  projectOperation(d.validate, reads('file.read'), (ctx, i) => validateReferences(ctx, i.references)),
];
