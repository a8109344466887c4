import {
  docsMcpTools,
  dropStrictNulls,
  hasNull,
  inFormat,
  isDocsToolName,
  isMemoryToolName,
  isToolName,
  isWikiToolName,
  mcpTools,
  memoryMcpTools,
  StoaError,
  wikiMcpTools,
  type McpToolDef,
  type ToolFormat,
} from '@stoa/contract';
import { runDocsTool } from '../understanding/tools.js';
import type { Ctx } from '../platform.js';
import { runMemoryTool } from '../memory/tools.js';
import { runWikiTool } from '../wiki/tools.js';
import { toolAudience } from './audience.js';
import type { ToolCallOptions, ToolResult } from './area-tool.js';
import { nearestName } from './near-miss.js';
import { runTool } from './run-tool.js';
import { newOrderedId } from '../ids.js';

/** A tool as every door lists it (MCP tools/list shape). */
export type AnyToolDef = Omit<McpToolDef, 'name'> & { name: string };

/**
 * Every tool an agent gets at the MCP doors and the tool routes: the file tools (with descriptions for this
 * caller), then the memory, wiki and document tools of their areas (§7 MCP row).
 *
 * @example
 * allTools(ctx).map((t) => t.name) // ['ws_list_files', …, 'file_changes', 'memory_get', …, 'wiki_list', …]
 */
export function allTools(ctx: Ctx): AnyToolDef[] {
  // A volume beyond projects (R1) holds files only: its agents get the file and document tools.
  if (ctx.project.volume) return [...mcpTools(ctx.platform.config.limits, toolAudience(ctx)), ...docsMcpTools()];
  return [...mcpTools(ctx.platform.config.limits, toolAudience(ctx)), ...memoryMcpTools(), ...wikiMcpTools(), ...docsMcpTools()];
}

/** {@link allTools} in the `mcp`, `openai` or `anthropic` shape; `strict`: within that vendor's strict mode. */
export function allToolsIn(ctx: Ctx, format: ToolFormat, opts: { strict?: boolean } = {}): unknown[] {
  if (opts.strict && format === 'mcp') throw new StoaError('bad_request', 'strict schemas are for the openai and anthropic formats');
  return inFormat(format, allTools(ctx), opts);
}

/**
 * Hands a call of any tool by name — file, memory, wiki or documents — to the tool runner of its area, which
 * answers `Refused: <reason>` instead of throwing and records the call in the trace. An unknown tool name is
 * refused with the nearest real one. Doors call tools through the operation runner (callTool in
 * operations/tool-ops.ts), which passes its steps as `opts.gate`.
 *
 * @example
 * await dispatchTool(ctx, 'memory_append', { file: 'MEMORY.md', text: '…' }, { gate });
 */
export async function dispatchTool(ctx: Ctx, name: string, rawArgs: unknown, opts: ToolCallOptions = {}): Promise<ToolResult> {
  // A strict-mode client sends its unused optional arguments as null; the full schema means them absent.
  const strictDef = hasNull(rawArgs) ? allTools(ctx).find((t) => t.name === name) : undefined;
  const args = strictDef ? dropStrictNulls(strictDef.inputSchema, rawArgs) : rawArgs;
  if (!ctx.project.volume && isMemoryToolName(name)) return runMemoryTool(ctx, name, args, opts);
  if (!ctx.project.volume && isWikiToolName(name)) return runWikiTool(ctx, name, args, opts);
  if (isDocsToolName(name)) return runDocsTool(ctx, name, args, opts);
  if (isToolName(name)) return runTool(ctx, name, args, opts);
  const near = nearestName(
    name,
    allTools(ctx).map((t) => t.name),
  );
  const e = new StoaError('not_found', `there is no tool "${name}"${near ? ` — did you mean "${near}"?` : ''}`);
  return { text: `Refused: ${e.message}`, refused: true, code: e.code, callId: newOrderedId('call'), path: null, version: null };
}
