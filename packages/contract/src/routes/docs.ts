import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';
import { searchModeParam } from './search.js';

const path = z.string().max(inputMax.path).min(1).describe('File path from the storage root');

/** Why understanding a file failed: over a size cap, too complex, parser ended (time, memory, crash), unreadable, attempts exhausted, deleted. */
export const parseFailureCodes = ['too_large', 'too_complex', 'timeout', 'out_of_memory', 'worker_crashed', 'unreadable', 'gave_up', 'deleted'] as const;
export type ParseFailureCode = (typeof parseFailureCodes)[number];

export const UnderstandingStatusSchema = z.object({
  fileAssetId: z.string().describe('ID of the file asset; stable across versions and moves of the file'),
  path: z.string(),
  version: z.number().int().describe('File version the status describes'),
  status: z.enum(['pending', 'ready', 'failed']).describe('Parse status of that version'),
  vectorIndexStatus: z
    .enum(['pending', 'ready', 'failed', 'unavailable'])
    .describe(
      'Vectors of the chunks for semantic search: "unavailable" means the installation has no embedding model and search is lexical only; "pending" until embedded; "failed" with vectorIndexError',
    ),
  vectorIndexError: z.string().nullable().describe("The embedding provider's reason when vectors failed or are being retried"),
  parseMode: z.enum(['auto', 'text', 'pdf', 'docx']),
  chunkCount: z.number().int(),
  error: z.string().nullable(),
  errorCode: z
    .enum(parseFailureCodes)
    .nullable()
    .describe(
      'Why parsing failed: over a size cap, too complex (pages, nesting), parser ended (time, memory, crash), unreadable, attempts exhausted, file deleted',
    ),
  attempts: z.number().int().describe('Parse attempts of this version; a file that keeps ending its parser is given up after a configured number'),
  updatedAt: z.string(),
});
const Span = z.object({ start: z.number().int(), end: z.number().int() }).describe('Character offsets [start, end) in the parsed text of that version');
export const ChunkSchema = z.object({
  fileAssetId: z.string(),
  chunkId: z.string(),
  index: z.number().int(),
  version: z.number().int(),
  page: z.number().int().nullable(),
  span: Span,
  hash: z.string().describe('SHA-256 of the chunk text'),
  text: z.string(),
});
export const ChunkHitSchema = z.object({
  path: z.string(),
  title: z.string(),
  snippet: z.string(),
  score: z.number(),
  fileAssetId: z.string(),
  chunkId: z.string(),
  version: z.number().int(),
  page: z.number().int().nullable(),
  span: Span,
  hash: z.string(),
  content: z.string(),
  matchedBy: z.array(z.enum(['lexical', 'vector'])).describe('Which rankings found it: "lexical", "vector", or both in hybrid search'),
});
export const ReferenceCheckSchema = z.object({
  fileAssetId: z.string(),
  chunkId: z.string(),
  status: z
    .enum(['valid', 'moved', 'changed', 'deleted', 'not_found'])
    .describe('valid: still there; moved: another path or position; changed: text gone from the current version; deleted: file gone'),
  path: z.string().nullable(),
  citedVersion: z.number().int().nullable(),
  currentVersion: z.number().int().nullable(),
  span: Span.nullable(),
  excerpt: z.string().nullable(),
});

export const docsRoutes = {
  understand: defineRoute({
    id: 'docs.understand',
    errors: ['not_a_text_file', 'too_large'],
    method: 'POST',
    path: '/projects/{project}/docs/understand',
    summary: 'Register a file for parsing and indexing, and parse it',
    input: z.object({ project: projectParam, path, parseMode: z.enum(['auto', 'text', 'pdf', 'docx']).optional().describe('Parser; "auto" chooses by type') }),
    output: UnderstandingStatusSchema,
  }),
  status: defineRoute({
    id: 'docs.status',
    method: 'GET',
    path: '/projects/{project}/docs/status',
    summary: 'Compact understanding status of a file (no parsed text)',
    input: z.object({ project: projectParam, path }),
    output: UnderstandingStatusSchema,
  }),
  retry: defineRoute({
    id: 'docs.retry',
    method: 'POST',
    path: '/projects/{project}/docs/retry',
    summary: 'Parse a failed file again',
    input: z.object({ project: projectParam, path }),
    output: UnderstandingStatusSchema,
  }),
  chunks: defineRoute({
    id: 'docs.chunks',
    method: 'GET',
    path: '/projects/{project}/docs/chunks',
    summary: "A page of a file's chunks (pages from 1)",
    input: z.object({
      project: projectParam,
      path,
      page: z.coerce.number().int().min(1).optional(),
      pageSize: z.coerce.number().int().min(1).optional().describe('Chunks per page (default 20); the host caps it at 50 and answers the page size it used'),
    }),
    output: z.object({ path: z.string(), page: z.number().int(), pageSize: z.number().int(), hasMore: z.boolean(), chunks: z.array(ChunkSchema) }),
  }),
  search: defineRoute({
    id: 'docs.search',
    method: 'GET',
    path: '/projects/{project}/docs/search',
    summary: 'Search document chunks you may read; each hit is a citation (file, version, span, hash)',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).min(1),
      file: z.string().max(inputMax.path).optional().describe('Only this file'),
      limit: z.coerce.number().int().min(1).optional().describe('Hits (default 10); the host caps it at 50'),
      contentLength: z.coerce.number().int().min(0).optional().describe('Characters of each chunk (default 1000); the host caps it at 4000'),
      mode: searchModeParam,
    }),
    output: z.array(ChunkHitSchema),
    errors: ['unavailable'],
  }),
  validate: defineRoute({
    id: 'docs.validate',
    method: 'POST',
    path: '/projects/{project}/docs/validate',
    summary: 'Re-check cited evidence: still there, moved, changed or deleted',
    input: z.object({
      project: projectParam,
      references: z
        .array(z.object({ fileAssetId: z.string().max(inputMax.id), chunkId: z.string().max(inputMax.id) }))
        .min(1)
        .max(50),
    }),
    output: z.array(ReferenceCheckSchema),
  }),
};
