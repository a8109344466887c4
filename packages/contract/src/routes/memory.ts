import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

const file = z
  .string()
  .max(inputMax.path)
  .min(1)
  .describe('Memory file: "SOUL.md" (of an agent), "AGENTS.md" (of the workspace) or "MEMORY.md" (of a conversation)');
const agent = z.string().max(inputMax.id).optional().describe('SOUL.md: whose (agent ID). An agent naming its own SOUL.md may leave it out');
const conversation = z
  .string()
  .max(inputMax.id)
  .optional()
  .describe("MEMORY.md: conversation ID or channel name. An agent in a turn may leave it out: MEMORY.md then means that turn's conversation");
const ref = { project: projectParam, file, agent, conversation };

export const MemoryAuthorSchema = z.object({
  kind: z.string().describe('"user", "agent", or "system" (SOUL.md version 0: the agent\'s instructions)'),
  id: z.string().nullable(),
  name: z.string().nullable().describe('Name of the person or agent'),
  conversationId: z.string().nullable().optional().describe('For agents: the conversation the agent saved from'),
});

export const MemoryDocSchema = z.object({
  file: z.string().describe('"SOUL.md", "AGENTS.md" or "MEMORY.md"'),
  version: z.number().int().describe("Version number; 0 for a never-saved file (SOUL.md version 0 holds the agent's instructions)"),
  content: z.string().describe('The text'),
  agent: z.string().optional().describe('SOUL.md: the agent it belongs to'),
  conversation: z.string().optional().describe('MEMORY.md: the conversation it belongs to'),
  modified: z.string().nullable().describe('When this version was saved, ISO-8601 UTC; null for version 0'),
  author: MemoryAuthorSchema.nullable().describe('Who saved this version'),
  editable: z.boolean().describe('Whether the caller may save this file (otherwise it opens read-only)'),
});

export const MemoryVersionSchema = z.object({
  version: z.number().int(),
  modified: z.string().nullable(),
  author: MemoryAuthorSchema.nullable(),
  op: z
    .string()
    .describe(
      '"set", "append", "merge" (a hosted agent\'s new lines appended after someone else saved), "restore" (an earlier version brought back) or "instructions"',
    ),
  chars: z.number().int().describe('Length of that version in characters'),
});

export const MemoryHitSchema = z.object({
  file: z.string(),
  agent: z.string().optional(),
  conversation: z.string().optional(),
  path: z.string().describe('As under .stoa/memory/: "SOUL.md", "AGENTS.md" or "<conversation id>/MEMORY.md"'),
  title: z.string(),
  snippet: z.string().describe('Text around the matched words'),
  score: z.number().describe('Higher is better'),
  highlights: z.array(z.tuple([z.number(), z.number()])),
  version: z.number().int(),
  modified: z.string(),
});

export const BundledMemorySchema = MemoryDocSchema.extend({ path: z.string().describe('Path relative to .stoa/memory/ in the working folder') });

export const memoryRoutes = {
  list: defineRoute({
    id: 'memory.list',
    method: 'GET',
    path: '/projects/{project}/memory',
    summary: 'The memory files the caller may read, and whether it may save each',
    input: z.object({ project: projectParam }),
    output: z.array(
      z.object({
        file: z.string(),
        agent: z.string().optional(),
        conversation: z.string().optional(),
        title: z.string(),
        version: z.number().int(),
        editable: z.boolean(),
      }),
    ),
  }),
  get: defineRoute({
    id: 'memory.get',
    method: 'GET',
    path: '/projects/{project}/memory/file',
    summary: 'The newest version of a memory file',
    input: z.object(ref),
    output: MemoryDocSchema,
  }),
  set: defineRoute({
    id: 'memory.set',
    errors: ['too_large'],
    method: 'PUT',
    path: '/projects/{project}/memory/file',
    summary: 'Save a new version of a memory file',
    description: 'With `base`, the save is refused with 409 memory_version_conflict (the body has currentVersion) when someone saved after that version.',
    input: z.object({
      ...ref,
      content: z.string().max(inputMax.text).describe('The whole new text'),
      base: z.coerce.number().int().min(0).optional().describe('The version this text is based on (the one you opened)'),
    }),
    output: MemoryDocSchema,
  }),
  append: defineRoute({
    id: 'memory.append',
    errors: ['too_large'],
    method: 'POST',
    path: '/projects/{project}/memory/append',
    summary: 'Add text at the end of the newest version (never conflicts)',
    input: z.object({ ...ref, text: z.string().max(inputMax.text).min(1).describe('Text to add; it goes on lines of its own') }),
    output: MemoryDocSchema,
  }),
  history: defineRoute({
    id: 'memory.history',
    method: 'GET',
    path: '/projects/{project}/memory/history',
    summary: 'Every saved version of a memory file, newest first',
    input: z.object(ref),
    output: z.array(MemoryVersionSchema),
  }),
  show: defineRoute({
    id: 'memory.show',
    method: 'GET',
    path: '/projects/{project}/memory/version',
    summary: 'One earlier version of a memory file',
    input: z.object({ ...ref, version: z.coerce.number().int().min(0).describe('Version number from history') }),
    output: MemoryDocSchema,
  }),
  restore: defineRoute({
    id: 'memory.restore',
    errors: ['too_large'],
    method: 'POST',
    path: '/projects/{project}/memory/restore',
    summary: "Save an earlier version's text as the newest version (history keeps every version)",
    description: 'With `base`, refused with 409 memory_version_conflict when someone saved after that version, like a save.',
    input: z.object({
      ...ref,
      version: z.coerce.number().int().min(0).describe('The version to bring back (from history)'),
      base: z.coerce.number().int().min(0).optional().describe('The newest version you saw; the restore is refused when someone saved since'),
    }),
    output: MemoryDocSchema,
  }),
  search: defineRoute({
    id: 'memory.search',
    method: 'GET',
    path: '/projects/{project}/memory/search',
    summary: 'Ranked search over the memory files the caller may read, with snippets',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).min(1).describe('Words to find, any language'),
      limit: z.coerce.number().int().min(1).max(100).optional(),
    }),
    output: z.array(MemoryHitSchema),
  }),
  bundle: defineRoute({
    id: 'memory.bundle',
    method: 'GET',
    path: '/projects/{project}/memory/bundle',
    summary: "The files `memory pull` writes: SOUL.md, AGENTS.md and the conversation's MEMORY.md",
    input: z.object({ project: projectParam, agent, conversation }),
    output: z.array(BundledMemorySchema),
  }),
};

const turnInput = {
  project: projectParam,
  agent: z.string().max(inputMax.id).optional().describe('The hosted agent (agent ID); an agent token may leave it out'),
  conversation: z.string().max(inputMax.id).optional().describe('The conversation of the turn (ID or channel name)'),
};

export const PreparedFileSchema = BundledMemorySchema.extend({
  changed: z.boolean().describe('Changed since the agent last saw it in this conversation'),
  inlined: z.boolean().describe('Prepended in full; false when over STOA_MEMORY_INLINE_CHARS characters (only named)'),
});

export const turnRoutes = {
  prepare: defineRoute({
    id: 'turn.prepare',
    method: 'POST',
    path: '/projects/{project}/turns/prepare',
    summary: "Before a hosted agent's turn: its memory files and the message to deliver",
    description:
      "Returns the files to write under .stoa/memory/ in the agent's working folder and the message with every file changed since the agent last saw it prepended. Records what the agent has now seen.",
    input: z.object({ ...turnInput, message: z.string().max(inputMax.note).optional().describe('The message to deliver') }),
    output: z.object({ message: z.string(), dir: z.string(), files: z.array(PreparedFileSchema) }),
  }),
  commit: defineRoute({
    id: 'turn.commit',
    method: 'POST',
    path: '/projects/{project}/turns/commit',
    summary: "After a hosted agent's turn: save its edits of the memory files",
    description: "Each edited file becomes a new version; when someone else saved meanwhile, only the agent's new lines are appended at the end.",
    input: z.object({
      ...turnInput,
      files: z.array(z.object({ file: file, content: z.string().max(inputMax.text) })).describe('The files as the agent left them'),
    }),
    output: z.object({
      files: z.array(
        z.object({
          file: z.string(),
          path: z.string(),
          status: z.enum(['unchanged', 'saved', 'merged', 'refused']),
          version: z.number().int(),
          reason: z.string().optional(),
          code: z.string().optional().describe('Error code of a refusal'),
        }),
      ),
    }),
  }),
};
