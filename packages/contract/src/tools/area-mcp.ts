import { z } from 'zod';
import { annotationsOf, toolOutputSchema, type ToolAnnotations, type ToolEffect } from './effects.js';

/** An MCP tools/list entry (every area's tools have this shape: files, memory, wiki, documents). */
export interface AreaMcpTool<N extends string> {
  name: N;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/**
 * The JSON Schema of a tool's input as every door publishes it. Tool schemas are strict objects, so the schema
 * says `additionalProperties: false` and function-calling models are told that no other argument exists.
 */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * Builds the MCP tools/list entries of an area from its schemas, descriptions, titles and effects, so every
 * area's tools are described the same way.
 *
 * @example
 * areaMcpTools(wikiToolSchemas, wikiToolDescriptions, titles, wikiToolEffects)
 */
export function areaMcpTools<N extends string>(
  schemas: Record<N, z.ZodType>,
  descriptions: Record<N, string>,
  titles: Record<N, string>,
  effects: Record<N, ToolEffect>,
): Array<AreaMcpTool<N>> {
  return (Object.keys(schemas) as N[]).map((name) => ({
    name,
    title: titles[name],
    description: descriptions[name],
    inputSchema: inputJsonSchema(schemas[name]),
    outputSchema: toolOutputSchema,
    annotations: annotationsOf(titles[name], effects[name]),
  }));
}
