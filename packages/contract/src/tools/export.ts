import { z } from 'zod';
import { toolAnnotations, toolDescription, toolTitles, type ToolAudience, type ToolLimits } from './descriptions.js';
import { toolInputSchemas, toolNames, type ToolName } from './schemas.js';

export type ToolFormat = 'mcp' | 'openai' | 'anthropic';

/** The JSON Schema of a tool's input, as every export and the MCP server publish it. */
export function toolJsonSchema(name: ToolName, limits: ToolLimits): Record<string, unknown> {
  const schema = toolInputSchemas(limits)[name] as z.ZodObject<any>;
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** One tool as MCP's tools/list gives it. */
export interface McpToolDef {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/**
 * Every file tool in one of three shapes, all generated from the same zod schemas and descriptions:
 * `mcp` (tools/list entries), `openai` (Chat Completions / Agents SDK function tools) and `anthropic`
 * (Messages API `tools`).
 *
 * @example
 * const tools = exportTools('anthropic', limits); // [{ name: 'ws_list_files', description, input_schema }, …]
 */
export function exportTools(format: ToolFormat, limits: ToolLimits, audience?: ToolAudience): unknown[] {
  return inFormat(format, mcpTools(limits, audience));
}

/** MCP-shaped tool definitions (any area's: files, memory, wiki) in one of the three export shapes. */
export function inFormat(format: ToolFormat, defs: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>): unknown[] {
  if (format === 'mcp') return defs;
  if (format === 'openai') return defs.map((d) => ({ type: 'function', function: { name: d.name, description: d.description, parameters: d.inputSchema } }));
  return defs.map((d) => ({ name: d.name, description: d.description, input_schema: d.inputSchema }));
}

/** The MCP tool definitions (name, title, description, input schema, annotations). */
export function mcpTools(limits: ToolLimits, audience?: ToolAudience): McpToolDef[] {
  return toolNames.map((name) => ({
    name,
    title: toolTitles[name],
    description: toolDescription(name, limits, audience),
    inputSchema: toolJsonSchema(name, limits),
    annotations: { title: toolTitles[name], ...toolAnnotations[name] },
  }));
}
