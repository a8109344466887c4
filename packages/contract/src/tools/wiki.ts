import { z } from 'zod';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';

const path = z.string().min(1).describe(
  'Page path: lowercase segments separated by "/", each of letters (any script), digits, "-" or "_", e.g. "handbook/refunds" or "справка/база". Upper case is folded to lower case; no spaces, dots or other punctuation.',
);

/**
 * Input schemas and descriptions of the agents' wiki tools and of the one search (W7, B1, §7 MCP). They
 * are the agent's only manual for the wiki (A6).
 *
 * @example
 * wikiToolSchemas.wiki_put.parse({ path: 'handbook/refunds', text: '# Refunds\n…', base_version: 3 });
 */
export const wikiToolSchemas = {
  wiki_list: z.object({
    prefix: z.string().optional().describe('Only this page and the pages below it (e.g. "handbook"). Absent: every page you can see.'),
  }),
  wiki_get: z.object({ path }),
  wiki_put: z.object({
    path,
    text: z.string().describe('The whole markdown text of the page. Link other pages with [[path]], [[path|label]] or [[path#heading]].'),
    title: z.string().optional().describe('Title of the page. Absent keeps the current title (a new page then shows one derived from its path).'),
    base_version: z.number().int().min(0).optional().describe('The version you read (wiki_get names it). If someone saved after it, nothing is saved and you get "Refused: … version N"; read the page again, redo your change and save again. 0 = the page must not exist yet. Leave it out only to overwrite regardless.'),
    channel: z.string().optional().describe('Make the page belong to this channel (conversation ID or channel name you take part in): only its participants will see it. Absent: a new page is visible to the whole workspace; an existing page keeps its visibility.'),
  }),
  wiki_search: z.object({
    query: z.string().min(1).describe('Words to find in the wiki pages you can see, any language (Chinese, Russian and English work). Best matches first, each with a snippet.'),
    limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
  }),
  search: z.object({
    query: z.string().min(1).describe('Words to find, any language, across the wiki pages, memory files and text files you may read.'),
    kinds: z.array(z.enum(['wiki', 'memory', 'file'])).optional().describe('Only these kinds of results. Absent: all three.'),
    limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
  }),
};

export type WikiToolName = keyof typeof wikiToolSchemas;

export const wikiToolDescriptions: Record<WikiToolName, string> = {
  wiki_list: 'List the wiki pages you can see, ordered by path (nesting is by path: "handbook" contains "handbook/refunds"); one line per page with path, title and version.',
  wiki_get: 'Read one wiki page: a header with path, title and version, then its markdown text, then "Linked here" (pages linking to it) and links that point to missing pages.',
  wiki_put: 'Create a wiki page or save a new version of it (the whole text). Give base_version (the version you read) so you never overwrite someone else\'s newer save. Answers with the new version.',
  wiki_search: 'Search the wiki pages you can see by their words (any language); best matches first, each with path, title and a snippet.',
  search: 'One search over everything you may read: wiki pages, memory files (SOUL.md, AGENTS.md, MEMORY.md) and the contents of text files in the project storage; best matches first, each with its kind, path and a snippet.',
};

/** Whether a tool name is one of the wiki tools (including the one search). */
export function isWikiToolName(name: string): name is WikiToolName {
  return Object.prototype.hasOwnProperty.call(wikiToolSchemas, name);
}

const wikiToolTitles: Record<WikiToolName, string> = {
  wiki_list: 'List wiki pages', wiki_get: 'Read a wiki page', wiki_put: 'Save a wiki page', wiki_search: 'Search the wiki', search: 'Search everything',
};

/**
 * The wiki tools as MCP tools/list entries (same shape as `mcpTools` of the file tools), generated from the
 * schemas and descriptions above. An MCP door lists `[...mcpTools(limits), ...wikiMcpTools()]` and sends calls
 * whose name passes `isWikiToolName` to the core's `runWikiTool(ctx, name, args)`.
 *
 * @example
 * wikiMcpTools().map((t) => t.name) // ['wiki_list', 'wiki_get', 'wiki_put', 'wiki_search', 'search']
 */
export function wikiMcpTools(): Array<AreaMcpTool<WikiToolName>> {
  return areaMcpTools(wikiToolSchemas, wikiToolDescriptions, wikiToolTitles, (n) => ({ readOnly: n !== 'wiki_put' }));
}
