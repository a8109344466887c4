import { z } from 'zod';
import { inputMax } from '../limits.js';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';
import { READS, searchModeTool, type ToolEffect } from './effects.js';

const path = z.string().max(inputMax.path).min(1).describe('File path from the storage root.');

/**
 * The agents' document tools (R6, B4): parse and index a file, page through its chunks, search them with
 * citations, and check citations later. These descriptions are the agent's only manual for them (A6).
 *
 * @example
 * docsToolSchemas.docs_search.parse({ query: 'termination notice', limit: 5 });
 */
export const docsToolSchemas = {
  docs_understand: z.strictObject({
    path,
    parse_mode: z.enum(['auto', 'text', 'pdf', 'docx']).optional().describe('Default "auto" (by type).'),
  }),
  docs_status: z.strictObject({ path }),
  docs_chunks: z.strictObject({
    path,
    page: z.number().int().min(1).optional().describe('From 1.'),
    page_size: z.number().int().min(1).optional().describe('Default 10 (max 50).'),
  }),
  docs_search: z.strictObject({
    query: z.string().max(inputMax.query).min(1).describe('Words, any language.'),
    file: z.string().max(inputMax.path).optional().describe('Only this file.'),
    limit: z.number().int().min(1).optional().describe('Default 5 (max 50).'),
    content_length: z.number().int().min(0).optional().describe('Characters per chunk (default 600, max 4000).'),
    mode: searchModeTool,
  }),
  docs_validate: z.strictObject({
    references: z
      .array(z.strictObject({ file_asset_id: z.string().max(inputMax.id), chunk_id: z.string().max(inputMax.id) }))
      .min(1)
      .max(50)
      .describe('Citations from docs_search, at most 50.'),
  }),
};

export type DocsToolName = keyof typeof docsToolSchemas;

export const docsToolDescriptions: Record<DocsToolName, string> = {
  docs_understand:
    'Parse a text, PDF or DOCX file into chunks and index it for docs_search (words, and meaning where an embedding model is configured); re-parsed when the file changes.',
  docs_status: 'Parse status of a file: pending, ready or failed (why), version, chunks.',
  docs_chunks: 'Read a parsed file a page of chunks at a time, with page numbers and character spans.',
  docs_search: 'Search parsed documents; each hit is a citation (path, version, page, span, file_asset_id, chunk_id).',
  docs_validate: 'Check citations against current files: valid, moved, changed or deleted, with an excerpt.',
};

export function isDocsToolName(name: string): name is DocsToolName {
  return Object.prototype.hasOwnProperty.call(docsToolSchemas, name);
}

const titles: Record<DocsToolName, string> = {
  docs_understand: 'Parse a document',
  docs_status: 'Document parse status',
  docs_chunks: 'Read document chunks',
  docs_search: 'Search documents',
  docs_validate: 'Check citations',
};

/** Parsing writes only the derived index (never a file), and parsing again gives the same chunks. */
export const docsToolEffects: Record<DocsToolName, ToolEffect> = {
  docs_understand: { mutates: true, replaces: false, idempotent: true },
  docs_status: READS,
  docs_chunks: READS,
  docs_search: READS,
  docs_validate: READS,
};

/** The document tools as MCP tools/list entries, generated from the schemas and descriptions above. */
export function docsMcpTools(): Array<AreaMcpTool<DocsToolName>> {
  return areaMcpTools(docsToolSchemas, docsToolDescriptions, titles, docsToolEffects);
}
