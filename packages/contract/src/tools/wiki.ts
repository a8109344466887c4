import { z } from 'zod';
import { inputMax } from '../limits.js';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';
import { READS, searchModeTool, type ToolEffect } from './effects.js';

const path = z.string().max(inputMax.path).min(1).describe('Lowercase path of letters, digits, "-", "_", e.g. "handbook/refunds".');
const limit = z.number().int().min(1).max(50).optional().describe('Default 10.');

/**
 * Input schemas and descriptions of the agents' wiki tools and of the one search (W7, B1, §7 MCP). They
 * are the agent's only manual for the wiki (A6).
 *
 * @example
 * wikiToolSchemas.wiki_put.parse({ path: 'handbook/refunds', text: '# Refunds\n…', expected_version: 3 });
 */
export const wikiToolSchemas = {
  wiki_list: z.strictObject({ prefix: z.string().max(inputMax.path).optional().describe('Only this page and those below it.') }),
  wiki_get: z.strictObject({ path }),
  wiki_put: z.strictObject({
    path,
    text: z.string().max(inputMax.text).describe('Whole markdown text; link pages with [[path]] or [[path|label]].'),
    title: z.string().max(inputMax.title).optional().describe('Absent keeps the current title.'),
    expected_version: z.number().int().min(0).optional().describe('Version you read; if saved since, nothing is saved. 0 = must not exist.'),
    channel: z.string().max(inputMax.name).optional().describe('Only participants of this conversation will see the page.'),
  }),
  // Arguments as in wiki_put and str_replace, described there: every description costs each conversation tokens.
  wiki_edit: z.strictObject({
    path: z.string().max(inputMax.path).min(1),
    old_str: z.string().max(inputMax.text).min(1),
    new_str: z.string().max(inputMax.text),
    expected_version: z.number().int().min(1).optional(),
  }),
  wiki_search: z.strictObject({ query: z.string().max(inputMax.query).min(1).describe('Words, any language.'), limit }),
  search: z.strictObject({
    query: z.string().max(inputMax.query).min(1).describe('Words, any language.'),
    kinds: z
      .array(z.enum(['wiki', 'memory', 'file', 'document']))
      .optional()
      .describe('Absent: all four. "document": the text of understood PDF and DOCX files.'),
    limit,
    mode: searchModeTool,
  }),
};

export type WikiToolName = keyof typeof wikiToolSchemas;

export const wikiToolDescriptions: Record<WikiToolName, string> = {
  wiki_list: 'List the wiki pages you can see: path, title, version.',
  wiki_get: 'Read a wiki page: header with version, markdown, pages linking here, missing links.',
  wiki_put: 'Create or replace a wiki page (whole text) as a new version; history is kept.',
  wiki_edit: 'str_replace in a wiki page, as a new version.',
  wiki_search: 'Search the wiki pages you can see; best first, with snippets.',
  search:
    'One search over the wiki, memory files, text files and understood documents (PDF, DOCX) you may read; best first, with kind, path and snippet (documents with their chunk to cite).',
};

/** Whether a tool name is one of the wiki tools (including the one search). */
export function isWikiToolName(name: string): name is WikiToolName {
  return Object.prototype.hasOwnProperty.call(wikiToolSchemas, name);
}

const wikiToolTitles: Record<WikiToolName, string> = {
  wiki_list: 'List wiki pages',
  wiki_get: 'Read a wiki page',
  wiki_put: 'Save a wiki page',
  wiki_edit: 'Edit a wiki page',
  wiki_search: 'Search the wiki',
  search: 'Search everything',
};

/** What each wiki tool does to stored data: saving a page replaces its text (older versions stay in history). */
export const wikiToolEffects: Record<WikiToolName, ToolEffect> = {
  wiki_list: READS,
  wiki_get: READS,
  wiki_search: READS,
  search: READS,
  wiki_put: { mutates: true, replaces: true, idempotent: true },
  wiki_edit: { mutates: true, replaces: true, idempotent: false },
};

/**
 * The wiki tools as MCP tools/list entries.
 *
 * @example
 * wikiMcpTools().map((t) => t.name) // ['wiki_list', 'wiki_get', 'wiki_put', 'wiki_edit', 'wiki_search', 'search']
 */
export function wikiMcpTools(): Array<AreaMcpTool<WikiToolName>> {
  return areaMcpTools(wikiToolSchemas, wikiToolDescriptions, wikiToolTitles, wikiToolEffects);
}
