import { areaMcpTools, inputJsonSchema, type AreaMcpTool } from './area-mcp.js';
import { READS, type ToolEffect } from './effects.js';
import { toolDescription, toolTitles, type ToolAudience, type ToolLimits } from './descriptions.js';
import { toolInputSchemas, toolNames, type ToolName } from './schemas.js';
import { strictSchema } from './strict.js';

export type ToolFormat = 'mcp' | 'openai' | 'anthropic';

/** The JSON Schema of a file tool's input, as every export and the MCP server publish it. */
export function toolJsonSchema(name: ToolName, limits: ToolLimits): Record<string, unknown> {
  return inputJsonSchema(toolInputSchemas(limits)[name]);
}

/** One tool as MCP's tools/list gives it. */
export type McpToolDef = AreaMcpTool<ToolName>;

const change = (replaces: boolean, idempotent: boolean): ToolEffect => ({ mutates: true, replaces, idempotent });

/** What each file tool does to stored data (its MCP annotations follow from this). */
export const fileToolEffects: Record<ToolName, ToolEffect> = {
  ws_list_files: READS,
  ws_read_file: READS,
  list_files: READS,
  read_file: READS,
  read_files: READS,
  tree: READS,
  glob: READS,
  file_changes: READS,
  list_versions: READS,
  // Overwrite mode replaces content; append mode adds again on every call.
  ws_write_file: change(true, false),
  ws_delete_file: change(true, true),
  delete_file: change(true, true),
  // Refused when the file exists, so a second call changes nothing.
  create_file: change(false, true),
  str_replace: change(true, false),
  edit_file: change(true, false),
  full_file_rewrite: change(true, true),
  // Restoring the same version again leaves the same content (as one more version).
  restore_version: change(true, true),
  // Refused when the folder exists, so a second call changes nothing.
  create_folder: change(false, true),
  // Never overwrites; the second call is refused (the source is gone).
  move_file: change(false, true),
};

/**
 * Every file tool in one of three shapes, all generated from the same zod schemas and descriptions:
 * `mcp` (tools/list entries), `openai` (Chat Completions / Agents SDK function tools) and `anthropic`
 * (Messages API `tools`).
 *
 * @example
 * const tools = exportTools('anthropic', limits); // [{ name: 'ws_list_files', description, input_schema }, …]
 */
export function exportTools(format: ToolFormat, limits: ToolLimits, audience?: ToolAudience, opts: { strict?: boolean } = {}): unknown[] {
  return inFormat(format, mcpTools(limits, audience), opts);
}

/**
 * MCP-shaped tool definitions (any area's: files, memory, wiki) in one of the three export shapes. `strict`:
 * schemas within the vendor's strict mode, marked `strict: true` (./strict.ts); MCP has no strict mode.
 */
export function inFormat(
  format: ToolFormat,
  defs: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>,
  opts: { strict?: boolean } = {},
): unknown[] {
  if (format === 'mcp') return defs;
  if (format === 'openai') {
    return defs.map((d) => ({
      type: 'function',
      function: opts.strict
        ? { name: d.name, description: d.description, parameters: strictSchema(d.inputSchema, 'openai'), strict: true }
        : { name: d.name, description: d.description, parameters: d.inputSchema },
    }));
  }
  return defs.map((d) =>
    opts.strict
      ? { name: d.name, description: d.description, input_schema: strictSchema(d.inputSchema, 'anthropic'), strict: true }
      : { name: d.name, description: d.description, input_schema: d.inputSchema },
  );
}

/** The MCP tool definitions of the file tools (name, title, description, input and output schemas, annotations). */
export function mcpTools(limits: ToolLimits, audience?: ToolAudience): McpToolDef[] {
  const descriptions = Object.fromEntries(toolNames.map((n) => [n, toolDescription(n, limits, audience)])) as Record<ToolName, string>;
  const schemas = toolInputSchemas(limits);
  const ordered = Object.fromEntries(toolNames.map((n) => [n, schemas[n]])) as typeof schemas;
  return areaMcpTools(ordered, descriptions, toolTitles, fileToolEffects);
}
