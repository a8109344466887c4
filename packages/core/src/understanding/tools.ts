import { describeVectorIndex, docsToolSchemas, type DocsToolName } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { runToolCall, type ToolCallOptions, type ToolResult } from '../tools/area-tool.js';
import { understandFile, understandingStatus, type UnderstandingStatus } from './assets.js';
import { listChunks, searchChunks } from './chunks.js';
import { rankingNote } from '../embeddings/ranking-note.js';
import { validateReferences } from './validate.js';

function statusText(s: UnderstandingStatus): string {
  return `${s.path} (version ${s.version}): ${s.status}${s.error ? ` — ${s.error}` : ''}; ${s.chunkCount} chunks; file_asset_id ${s.fileAssetId}; vector index ${describeVectorIndex(s.vectorIndexStatus)}${s.vectorIndexError ? ` — ${s.vectorIndexError}` : ''}.`;
}

const tools: { [N in DocsToolName]: (ctx: Ctx, a: any) => Promise<{ text: string; version?: number | null }> } = {
  docs_understand: async (ctx, a) => {
    const s = await understandFile(ctx, { path: a.path, parseMode: a.parse_mode });
    return { text: statusText(s), version: s.version };
  },
  docs_status: async (ctx, a) => {
    const s = await understandingStatus(ctx, a.path);
    return { text: statusText(s), version: s.version };
  },
  docs_chunks: async (ctx, a) => {
    const r = await listChunks(ctx, { path: a.path, page: a.page, pageSize: a.page_size ?? 10 });
    const body = r.chunks
      .map((c) => `[chunk ${c.index}, ${c.chunkId}${c.page ? `, page ${c.page}` : ''}, chars ${c.span.start}–${c.span.end}]\n${c.text}`)
      .join('\n\n');
    return {
      text: `${r.path}, page ${r.page}${r.hasMore ? ` (more: page ${r.page + 1})` : ' (last page)'}:\n\n${body || '(no chunks)'}`,
      version: r.chunks[0]?.version ?? null,
    };
  },
  docs_search: async (ctx, a) => {
    const hits = await searchChunks(ctx, { query: a.query, file: a.file, limit: a.limit ?? 5, contentLength: a.content_length ?? 600, mode: a.mode });
    if (hits.length === 0) return { text: 'No parsed document you may read matches. (Only files registered with docs_understand are searched.)' };
    return {
      text:
        rankingNote(ctx, hits) +
        hits
          .map(
            (h, i) =>
              `${i + 1}. ${h.path} (version ${h.version}${h.page ? `, page ${h.page}` : ''}, chars ${h.span.start}–${h.span.end}; file_asset_id ${h.fileAssetId}, chunk_id ${h.chunkId})\n${h.content}`,
          )
          .join('\n\n'),
    };
  },
  docs_validate: async (ctx, a) => {
    const checks = await validateReferences(
      ctx,
      a.references.map((r: { file_asset_id: string; chunk_id: string }) => ({ fileAssetId: r.file_asset_id, chunkId: r.chunk_id })),
    );
    return {
      text: checks
        .map(
          (c) =>
            `${c.fileAssetId}:${c.chunkId} — ${c.status}${c.path ? ` (${c.path}${c.currentVersion ? `, version ${c.currentVersion}` : ''})` : ''}${c.excerpt ? `: ${c.excerpt.slice(0, 200)}` : ''}`,
        )
        .join('\n'),
    };
  },
};

/**
 * Runs one document tool call as the context's actor (the implementation behind the MCP document tools).
 *
 * @example
 * await runDocsTool(agentCtx, 'docs_search', { query: 'notice period' });
 */
export function runDocsTool(ctx: Ctx, name: string, args: unknown, opts: ToolCallOptions = {}): Promise<ToolResult> {
  return runToolCall(ctx, { area: 'document', schemas: docsToolSchemas, run: tools, pathArg: 'path' }, name, args, opts);
}
