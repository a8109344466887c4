import { z } from 'zod';
import { areaMcpTools, type AreaMcpTool } from './area-mcp.js';

/**
 * Input schemas and descriptions of the agents' memory tools (M5, §7 MCP). They are the agent's only
 * manual for memory (A6), so they say exactly what each file is and what each call does.
 *
 * @example
 * memoryToolSchemas.memory_append.parse({ file: 'MEMORY.md', text: 'The ACME renewal moved to 2 November' });
 */
const file = z.enum(['SOUL.md', 'AGENTS.md', 'MEMORY.md']).describe(
  'Which memory file: "SOUL.md" is who you are and how you work (yours; you may edit it); "AGENTS.md" is the rules every agent of this workspace follows (you may read it; admins edit it); "MEMORY.md" is what to remember about one conversation (you and the other participants read and edit it). There is no workspace-wide MEMORY.md: shared knowledge belongs in the wiki.',
);
const channel = z.string().optional().describe(
  'MEMORY.md only: another conversation (ID or channel name) whose MEMORY.md you mean. Leave it out for the conversation you are in now. You may use only conversations you take part in.',
);

export const memoryToolSchemas = {
  memory_get: z.object({ file, channel }),
  memory_append: z.object({
    file, channel,
    text: z.string().min(1).describe('Text to add at the end, on lines of its own. Appends are applied on the server one after another: they never conflict and never lose a line, whoever else writes at the same time. Prefer this for adding a fact.'),
  }),
  memory_set: z.object({
    file, channel,
    content: z.string().describe('The whole new text of the file; it replaces the old text as a new version (older versions stay in history).'),
    base_version: z.number().int().min(0).optional().describe('The version you read (memory_get names it). If someone saved after it, nothing is saved and you get "Refused: … memory_version_conflict"; read the file again, redo your change and save again. Leave it out only if you mean to overwrite regardless.'),
  }),
  memory_search: z.object({
    query: z.string().min(1).describe('Words to find in the memory files you may read (your SOUL.md, AGENTS.md, the MEMORY.md of your conversations), any language. Best matches first, each with a snippet.'),
    limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
  }),
};

export type MemoryToolName = keyof typeof memoryToolSchemas;

export const memoryToolDescriptions: Record<MemoryToolName, string> = {
  memory_get: 'Read a memory file (SOUL.md, AGENTS.md or MEMORY.md) as it is now: its text and version number. Answers start with a header line naming the file and version.',
  memory_append: 'Add a line or lines at the end of a memory file (SOUL.md or MEMORY.md; AGENTS.md only admins edit). Never conflicts with other writers and never loses a line. Answers with the new version.',
  memory_set: 'Replace the whole text of a memory file as a new version. Give base_version (the version you read) so you never overwrite someone else\'s newer save: if the file changed since, you are refused with memory_version_conflict. To add a fact, use memory_append instead.',
  memory_search: 'Search the memory files you may read for words (any language); best matches first, each with the file, version and a snippet.',
};

/** Whether a tool name is one of the memory tools. */
export function isMemoryToolName(name: string): name is MemoryToolName {
  return Object.prototype.hasOwnProperty.call(memoryToolSchemas, name);
}

const memoryToolTitles: Record<MemoryToolName, string> = {
  memory_get: 'Read a memory file', memory_append: 'Append to a memory file', memory_set: 'Save a memory file', memory_search: 'Search memory files',
};

/**
 * The memory tools as MCP tools/list entries (the shape of the file tools' `mcpTools` and `wikiMcpTools`). An MCP
 * door lists `[...mcpTools(limits), ...wikiMcpTools(), ...memoryMcpTools()]` and sends calls whose name passes
 * `isMemoryToolName` to the core's `runMemoryTool(ctx, name, args)`.
 *
 * @example
 * memoryMcpTools().map((t) => t.name) // ['memory_get', 'memory_append', 'memory_set', 'memory_search']
 */
export function memoryMcpTools(): Array<AreaMcpTool<MemoryToolName>> {
  return areaMcpTools(memoryToolSchemas, memoryToolDescriptions, memoryToolTitles, (n) => ({ readOnly: n === 'memory_get' || n === 'memory_search', destructive: n === 'memory_set' }));
}
