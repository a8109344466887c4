import { z } from 'zod';

/** An MCP tools/list entry of an area's tool (same shape as the file tools' `mcpTools`). */
export interface AreaMcpTool<N extends string> {
  name: N;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/**
 * Builds the MCP tools/list entries of an area (memory, wiki, documents) from its schemas, descriptions and
 * titles, so every area's tools are described the same way.
 *
 * @example
 * areaMcpTools(wikiToolSchemas, wikiToolDescriptions, titles, (n) => ({ readOnly: n !== 'wiki_put' }))
 */
export function areaMcpTools<N extends string>(
  schemas: Record<N, z.ZodType>,
  descriptions: Record<N, string>,
  titles: Record<N, string>,
  hints: (name: N) => { readOnly: boolean; destructive?: boolean; idempotent?: boolean },
): Array<AreaMcpTool<N>> {
  return (Object.keys(schemas) as N[]).map((name) => {
    const inputSchema = z.toJSONSchema(schemas[name], { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
    delete inputSchema.$schema;
    const h = hints(name);
    return {
      name, title: titles[name], description: descriptions[name], inputSchema,
      annotations: { title: titles[name], readOnlyHint: h.readOnly, destructiveHint: h.destructive ?? false, idempotentHint: h.idempotent ?? h.readOnly, openWorldHint: false },
    };
  });
}
