import { z } from 'zod';
import { inputMax } from '../limits.js';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';
import { READS, type ToolEffect } from './effects.js';

/**
 * Input schemas and descriptions of the agents' memory tools (M5, §7 MCP). They are the agent's only
 * manual for memory (A6): what each file is is said once, on the `file` argument.
 *
 * @example
 * memoryToolSchemas.memory_append.parse({ file: 'MEMORY.md', text: 'The ACME renewal moved to 2 November' });
 */
const file = z
  .enum(['SOUL.md', 'AGENTS.md', 'MEMORY.md'])
  .describe("SOUL.md: who you are (yours). AGENTS.md: rules for all agents (admins edit). MEMORY.md: this conversation's notes, shared with its participants.");
const channel = z.string().max(inputMax.id).optional().describe('MEMORY.md of another conversation you take part in (ID or channel name); absent = this one.');
// Said in full once (memory_get): every description costs each conversation tokens, and the model reads all tools.
const fileAgain = z.enum(['SOUL.md', 'AGENTS.md', 'MEMORY.md']).describe('As in memory_get.');
const channelAgain = z.string().max(inputMax.id).optional().describe('As in memory_get.');

export const memoryToolSchemas = {
  memory_get: z.strictObject({ file, channel }),
  memory_append: z.strictObject({ file: fileAgain, channel: channelAgain, text: z.string().max(inputMax.text).min(1).describe('Lines to add at the end.') }),
  memory_set: z.strictObject({
    file: fileAgain,
    channel: channelAgain,
    content: z.string().max(inputMax.text).describe('The whole new text.'),
    expected_version: z.number().int().min(0).optional().describe('Version you read; if saved since, nothing is saved (memory_version_conflict).'),
  }),
  // Arguments as in memory_set and str_replace, described there.
  memory_edit: z.strictObject({
    file: fileAgain,
    channel: channelAgain,
    old_str: z.string().max(inputMax.text).min(1),
    new_str: z.string().max(inputMax.text),
    expected_version: z.number().int().min(0).optional(),
  }),
  memory_search: z.strictObject({
    query: z.string().max(inputMax.query).min(1).describe('Words, any language.'),
    limit: z.number().int().min(1).max(50).optional().describe('Default 10.'),
  }),
};

export type MemoryToolName = keyof typeof memoryToolSchemas;

export const memoryToolDescriptions: Record<MemoryToolName, string> = {
  memory_get: 'Read a memory file with its version.',
  memory_append: 'Add lines at the end of SOUL.md or MEMORY.md; never conflicts, never loses a line. Prefer it for adding a fact.',
  memory_set: 'Replace the whole text of a memory file as a new version (history is kept).',
  memory_edit: 'str_replace in a memory file, as a new version.',
  memory_search: 'Search the memory files you may read; best first, with snippets.',
};

/** Whether a tool name is one of the memory tools. */
export function isMemoryToolName(name: string): name is MemoryToolName {
  return Object.prototype.hasOwnProperty.call(memoryToolSchemas, name);
}

const memoryToolTitles: Record<MemoryToolName, string> = {
  memory_get: 'Read a memory file',
  memory_append: 'Append to a memory file',
  memory_set: 'Save a memory file',
  memory_edit: 'Edit a memory file',
  memory_search: 'Search memory files',
};

/** What each memory tool does to stored data. */
export const memoryToolEffects: Record<MemoryToolName, ToolEffect> = {
  memory_get: READS,
  memory_search: READS,
  memory_append: { mutates: true, replaces: false, idempotent: false },
  memory_set: { mutates: true, replaces: true, idempotent: true },
  memory_edit: { mutates: true, replaces: true, idempotent: false },
};

/**
 * The memory tools as MCP tools/list entries (the shape of the file tools' `mcpTools`).
 *
 * @example
 * memoryMcpTools().map((t) => t.name) // ['memory_get', 'memory_append', 'memory_set', 'memory_edit', 'memory_search']
 */
export function memoryMcpTools(): Array<AreaMcpTool<MemoryToolName>> {
  return areaMcpTools(memoryToolSchemas, memoryToolDescriptions, memoryToolTitles, memoryToolEffects);
}
