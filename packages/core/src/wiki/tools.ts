import { rankingNote } from '../embeddings/ranking-note.js';
import { isStoaError, wikiToolSchemas, type WikiToolName } from '@stoa/contract';
import { replaceOnce } from '../tools/replace-once.js';
import { runToolCall, type ToolCallOptions, type ToolResult } from '../tools/area-tool.js';
import type { Ctx } from '../platform.js';
import { searchAll, type ChunkCitation } from '../unified-search/search-all.js';
import { putPage } from './put-page.js';
import { getPage, listPages } from './read-page.js';
import { searchWiki } from './search-wiki.js';

/** What a tool of this area answers: the one runner's result. */
export type WikiToolResult = ToolResult;

/** Where in a document a hit is, in the words docs_search and docs_validate use. */
const cited = (c: ChunkCitation | undefined) =>
  c ? ` (version ${c.version}${c.page ? `, page ${c.page}` : ''}; file_asset_id ${c.fileAssetId}, chunk_id ${c.chunkId})` : '';

const tools: { [N in WikiToolName]: (ctx: Ctx, a: any) => Promise<{ text: string; version: number | null }> } = {
  wiki_list: async (ctx, a) => {
    const pages = await listPages(ctx, { prefix: a.prefix });
    if (pages.length === 0)
      return { text: a.prefix ? `No page you can see is at or below "${a.prefix}".` : 'The wiki has no page you can see yet.', version: null };
    return { text: pages.map((p) => `${p.path} — ${p.title} (version ${p.version}${p.channel ? `, channel ${p.channel}` : ''})`).join('\n'), version: null };
  },
  wiki_get: async (ctx, a) => {
    const p = await getPage(ctx, { path: a.path });
    const lines = [`Page ${p.path} — "${p.title}", version ${p.version}${p.channel ? `, visible to channel ${p.channel} only` : ''}:`, p.text];
    if (p.linkedHere.length > 0) lines.push('', `Linked here: ${p.linkedHere.map((l) => l.path).join(', ')}`);
    const missing = p.links.filter((l) => l.missing);
    if (missing.length > 0) lines.push('', `Links to missing pages: ${missing.map((l) => l.path).join(', ')}`);
    return { text: lines.join('\n'), version: p.version };
  },
  wiki_put: async (ctx, a) => {
    const r = await putPage(ctx, { path: a.path, text: a.text, title: a.title, base: a.expected_version, channel: a.channel });
    const what = r.created ? 'Created' : r.changed ? 'Saved' : 'Unchanged (same title and text):';
    return { text: `${what} page ${r.path} — "${r.title}"; it is now version ${r.version}.`, version: r.version };
  },
  wiki_edit: async (ctx, a) => {
    // Without expected_version the edit goes to the newest text: a save in between is read again, not lost.
    for (let attempt = 1; ; attempt++) {
      const p = await getPage(ctx, { path: a.path });
      const base: number = a.expected_version ?? p.version;
      // A stale expected_version is refused by the save below as version_conflict, before the text matters.
      const edited = base === p.version ? replaceOnce(p.text, a.old_str, a.new_str, `page "${p.path}"`, p.version) : { text: p.text, line: 0 };
      try {
        const r = await putPage(ctx, { path: p.path, text: edited.text, base });
        return { text: `Replaced 1 occurrence at line ${edited.line} of page ${r.path}; it is now version ${r.version}.`, version: r.version };
      } catch (e) {
        if (a.expected_version !== undefined || attempt >= 3 || !isStoaError(e) || e.code !== 'version_conflict') throw e;
      }
    }
  },
  wiki_search: async (ctx, a) => {
    const hits = await searchWiki(ctx, { query: a.query, limit: a.limit ?? 10 });
    if (hits.length === 0) return { text: 'No wiki page you can see matches.', version: null };
    return { text: hits.map((h, i) => `${i + 1}. ${h.path} — ${h.title}: ${h.snippet}`).join('\n'), version: null };
  },
  search: async (ctx, a) => {
    const hits = await searchAll(ctx, { query: a.query, kinds: a.kinds, limit: a.limit ?? 10, mode: a.mode });
    if (hits.length === 0) return { text: 'Nothing you may read matches.', version: null };
    return {
      text:
        rankingNote(ctx, hits) +
        hits
          .map((h, i) => `${i + 1}. [${h.kind}] ${h.path}${h.title && h.title !== h.path ? ` — ${h.title}` : ''}${cited(h.citation)}: ${h.snippet}`)
          .join('\n'),
      version: null,
    };
  },
};

/**
 * Runs one wiki tool call (wiki_list, wiki_get, wiki_put, wiki_search, search) as the context's actor — the
 * implementation behind the MCP wiki tools. Refusals never throw: the model reads `Refused: <reason>`.
 *
 * @example
 * await runWikiTool(agentCtx, 'wiki_put', { path: 'handbook/refunds', text: '# Refunds', expected_version: 2 });
 * // { text: 'Saved page handbook/refunds — "Refunds"; it is now version 3.', refused: false, version: 3 }
 */
export function runWikiTool(ctx: Ctx, name: string, args: unknown, opts: ToolCallOptions = {}): Promise<WikiToolResult> {
  return runToolCall(ctx, { area: 'wiki', schemas: wikiToolSchemas, run: tools, pathArg: 'path' }, name, args, opts);
}
