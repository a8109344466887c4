import { z } from 'zod';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';

const path = z.string().min(1).describe('File path from the storage root, e.g. "contracts/lease.pdf" (your own files: "agents/<your ID>/…").');

/**
 * The agents' document tools (R6, B4): parse and index a file, page through its chunks, search them with
 * citations, and check citations later. These descriptions are the agent's only manual for them (A6).
 *
 * @example
 * docsToolSchemas.docs_search.parse({ query: 'termination notice', limit: 5 });
 */
export const docsToolSchemas = {
  docs_understand: z.object({
    path,
    parse_mode: z.enum(['auto', 'text', 'pdf', 'docx']).optional().describe('Parser; "auto" (default) chooses by file type. Text, PDF and DOCX files can be parsed.'),
  }),
  docs_status: z.object({ path }),
  docs_chunks: z.object({
    path,
    page: z.number().int().min(1).optional().describe('Page of chunks, from 1 (default 1).'),
    page_size: z.number().int().min(1).max(50).optional().describe('Chunks per page, 1–50 (default 10).'),
  }),
  docs_search: z.object({
    query: z.string().min(1).describe('Words to find in the parsed documents you may read, any language.'),
    file: z.string().optional().describe('Only this file (path from the storage root).'),
    limit: z.number().int().min(1).max(50).optional().describe('At most this many hits, 1–50 (default 5).'),
    content_length: z.number().int().min(0).max(4000).optional().describe('Characters of each chunk to return, 0–4000 (default 600).'),
  }),
  docs_validate: z.object({
    references: z.array(z.object({ file_asset_id: z.string(), chunk_id: z.string() })).min(1).max(50).describe('Citations to check, as given by docs_search (file_asset_id, chunk_id); at most 50.'),
  }),
};

export type DocsToolName = keyof typeof docsToolSchemas;

export const docsToolDescriptions: Record<DocsToolName, string> = {
  docs_understand: 'Parse a text, PDF or DOCX file you may read into chunks and index them for docs_search. Run it once per file; after the file changes it is parsed again automatically. Answers with the status and the number of chunks. Search is lexical (by words); there is no semantic vector index on this installation.',
  docs_status: 'The parse status of a file registered with docs_understand: pending, ready or failed (with the reason), its version and chunk count.',
  docs_chunks: 'Read a parsed file chunk by chunk, a page at a time (pages from 1); the answer says whether more pages follow. Each chunk shows its page number (PDF) and character span.',
  docs_search: 'Search the parsed documents you may read; best matches first. Every hit is a citation: path, file version, page, character span, file_asset_id and chunk_id — quote these when you cite, and check them later with docs_validate.',
  docs_validate: 'Check citations (file_asset_id + chunk_id) against the current files: "valid" (still there), "moved" (other path or position), "changed" (the text is gone from the current version) or "deleted", with an excerpt.',
};

export function isDocsToolName(name: string): name is DocsToolName {
  return Object.prototype.hasOwnProperty.call(docsToolSchemas, name);
}

const titles: Record<DocsToolName, string> = {
  docs_understand: 'Parse a document', docs_status: 'Document parse status', docs_chunks: 'Read document chunks', docs_search: 'Search documents', docs_validate: 'Check citations',
};

/** The document tools as MCP tools/list entries, generated from the schemas and descriptions above. */
export function docsMcpTools(): Array<AreaMcpTool<DocsToolName>> {
  return areaMcpTools(docsToolSchemas, docsToolDescriptions, titles, (n) => ({ readOnly: n !== 'docs_understand', idempotent: true }));
}
