import { z } from 'zod';
/**
 * What a tool does to stored data — the operation's own properties, from which its MCP annotations follow.
 * `mutates`: it can change stored data (and counts against an agent's change limit when it does);
 * `replaces`: it can destroy or overwrite existing content (a delete, an overwrite, a whole-text save);
 * `idempotent`: calling it again with the same arguments leaves the same content.
 */
export interface ToolEffect {
  mutates: boolean;
  replaces: boolean;
  idempotent: boolean;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export const READS: ToolEffect = { mutates: false, replaces: false, idempotent: true };

/**
 * MCP annotations of a tool from its effect: read-only when it changes nothing; destructive only when it can
 * overwrite or remove content; never open-world (every tool acts inside this Stoa project).
 *
 * @example
 * annotationsOf('Save a wiki page', { mutates: true, replaces: true, idempotent: true })
 * // { title: 'Save a wiki page', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
 */
export function annotationsOf(title: string, e: ToolEffect): ToolAnnotations {
  return { title, readOnlyHint: !e.mutates, destructiveHint: e.mutates && e.replaces, idempotentHint: e.idempotent, openWorldHint: false };
}

/**
 * The structured result every tool returns beside its text (MCP `structuredContent`): the text itself, the file
 * or page it touched and its version, a refusal's stable code, and tool-specific data (a list, a tree, a diff, a cursor) when there is some.
 */
export const toolOutputSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    path: { type: ['string', 'null'] },
    version: { type: ['integer', 'null'] },
    code: { type: 'string' },
    data: { type: 'object' },
  },
  required: ['text', 'path', 'version'],
  additionalProperties: false,
};

/** The `mode` argument of the search tools (docs_search, search). */
export const searchModeTool = z
  .enum(['lexical', 'vector', 'hybrid'])
  .optional()
  .describe('lexical (words), vector (meaning) or hybrid (both). Default: hybrid where the server has an embedding model, else lexical.');
