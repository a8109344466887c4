import { docsMcpTools, inFormat, isDocsToolName, isMemoryToolName, isWikiToolName, mcpTools, memoryMcpTools, wikiMcpTools, type McpToolDef, type ToolFormat } from '@stoa/contract';
import { runDocsTool } from '../understanding/tools.js';
import type { Ctx } from '../platform.js';
import { runMemoryTool } from '../memory/tools.js';
import { runWikiTool } from '../wiki/tools.js';
import { toolAudience } from './audience.js';
import type { RuntimeInfo } from './caller.js';
import { runTool } from './run-tool.js';

/** A tool as every door lists it (MCP tools/list shape). */
export type AnyToolDef = Omit<McpToolDef, 'name'> & { name: string };

/**
 * Every tool an agent gets at the MCP doors and the tool routes: the file tools (with descriptions for this
 * caller), then the memory, wiki and document tools of their areas (§7 MCP row).
 *
 * @example
 * allTools(ctx).map((t) => t.name) // ['ws_list_files', …, 'delete_file', 'memory_get', …, 'wiki_list', …]
 */
export function allTools(ctx: Ctx): AnyToolDef[] {
  return [...mcpTools(ctx.platform.config.limits, toolAudience(ctx)), ...memoryMcpTools(), ...wikiMcpTools(), ...docsMcpTools()];
}

/** {@link allTools} in the `mcp`, `openai` or `anthropic` shape. */
export function allToolsIn(ctx: Ctx, format: ToolFormat): unknown[] {
  return inFormat(format, allTools(ctx));
}

/**
 * Runs a call of any tool by name — file, memory or wiki — each through its area's one implementation, which
 * answers `Refused: <reason>` instead of throwing and records the call in the conversation's trace.
 *
 * @example
 * await runAnyTool(ctx, 'memory_append', { file: 'MEMORY.md', text: '…' });
 */
export async function runAnyTool(ctx: Ctx, name: string, args: unknown, opts: { runtime?: RuntimeInfo } = {}): Promise<{ text: string; refused: boolean; code?: string; callId?: string; path: string | null; version: number | null }> {
  if (isMemoryToolName(name)) return { path: null, ...(await runMemoryTool(ctx, name, args)) };
  if (isWikiToolName(name)) return { path: null, ...(await runWikiTool(ctx, name, args)) };
  if (isDocsToolName(name)) return { path: null, ...(await runDocsTool(ctx, name, args)) };
  return runTool(ctx, name, args, opts);
}
