import { z } from 'zod';
import { inputMax, SEARCH_OFFSET_MAX } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

export const SearchHitSchema = z.object({
  kind: z.string().describe('"wiki" (a page), "memory" (a memory file), "file" (a text file\'s contents) or "document" (a chunk of an understood PDF, DOCX…)'),
  path: z.string().describe('Page path, memory file path, or file path from the storage root'),
  title: z.string().describe('Page title, memory file name, or file name'),
  snippet: z.string().describe('Text around the matched words'),
  highlights: z.array(z.tuple([z.number(), z.number()])).describe('[start, end) offsets of matched words in snippet'),
  score: z.number().describe('Higher is better; hits are ordered best first'),
  updated: z.string(),
  id: z.string().describe('ID of the page, memory file or file (of a document: its file)'),
  matchedBy: z
    .array(z.enum(['lexical', 'vector']))
    .describe('Which rankings found it: "lexical" (the words), "vector" (the meaning), or both in hybrid search'),
  citation: z
    .object({
      fileAssetId: z.string(),
      chunkId: z.string(),
      version: z.number().int().describe('File version the chunk was parsed from'),
      page: z.number().int().nullable(),
      span: z.object({ start: z.number().int(), end: z.number().int() }).describe('Characters of the parsed text'),
      hash: z.string().describe("The chunk's content hash"),
    })
    .optional()
    .describe('Documents only: the chunk the hit is in, to cite and validate (docs validate)'),
  version: z
    .number()
    .int()
    .optional()
    .describe('Files and documents: the file version that was searched (of a document: the version its chunk was parsed from), to open exactly it'),
  heading: z.string().optional().describe('The markdown heading of the section the match is in, where the text has headings'),
  anchor: z.string().optional().describe('Wiki pages: the id of that heading on the rendered page (the URL fragment), to open the page at the match'),
});

/** The ranking a search asks for; the default is hybrid where an embedding model is configured, lexical where not. */
export const searchModeParam = z
  .enum(['lexical', 'vector', 'hybrid'])
  .optional()
  .describe(
    'Ranking: "lexical" (words, BM25), "vector" (meaning, cosine similarity), "hybrid" (both, reciprocal rank fusion). Default: hybrid when the installation has an embedding model, lexical when not; vector or hybrid without one answers 503 unavailable',
  );

export const searchRoutes = {
  all: defineRoute({
    id: 'search.all',
    method: 'GET',
    path: '/projects/{project}/search',
    summary: 'One ranked search over wiki pages, memory files, file contents and understood documents you may read',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).describe('Words to find, any language'),
      kinds: z.string().max(inputMax.name).optional().describe('Comma-separated subset of wiki,memory,file,document (default: all four)'),
      limit: z.coerce.number().int().min(1).max(100).optional(),
      offset: z.coerce.number().int().min(0).max(SEARCH_OFFSET_MAX).optional(),
      mode: searchModeParam,
    }),
    output: z.array(SearchHitSchema),
    errors: ['unavailable'],
  }),
  results: defineRoute({
    id: 'search.results',
    method: 'GET',
    path: '/projects/{project}/search/results',
    summary: 'One page of the one search, with counts per kind and a cursor to the next page',
    description:
      'The hits of GET /search (same fields, same order) for browsing: `counts` says how many hits each kind has (up to 100, which reads "100 or more"), counted among what the caller may read only, whatever `kinds` asks for; pass `nextCursor` back as `cursor` for the next page (cursors are opaque and belong to the project they came from).',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).describe('Words to find, any language'),
      kinds: z.string().max(inputMax.name).optional().describe('Comma-separated subset of wiki,memory,file,document (default: all four)'),
      limit: z.coerce.number().int().min(1).max(100).optional().describe('Hits per page (default 20)'),
      cursor: z.string().max(inputMax.id).optional().describe("The previous page's nextCursor"),
      mode: searchModeParam,
    }),
    output: z.object({
      hits: z.array(SearchHitSchema),
      counts: z
        .object({ wiki: z.number().int(), memory: z.number().int(), file: z.number().int(), document: z.number().int() })
        .describe('Hits per kind the caller may read, up to 100 each'),
      nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
    }),
    errors: ['unavailable'],
  }),
  reindex: defineRoute({
    id: 'search.reindex',
    method: 'POST',
    path: '/projects/{project}/search/reindex',
    summary: 'Index the contents of every text file again (admins; for files stored before the index existed)',
    input: z.object({ project: projectParam }),
    output: z.object({ files: z.number().int().describe('Files looked at') }),
  }),
};
