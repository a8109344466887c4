import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

const access = z.object({ enabled: z.boolean(), write: z.enum(['own', 'project']), read: z.enum(['project', 'own']) });
export const AgentSchema = z.object({
  id: z.string().describe('Agent ID: "agt_" + 8 letters/digits'),
  name: z.string(),
  ownerId: z.string().nullable(),
  instructions: z.string(),
  files: z.enum(['on', 'off']).describe('File access (A1, default off)'),
  write: z.enum(['own', 'project']).describe('Where the agent writes (default own folder)'),
  read: z.enum(['project', 'own']).describe('What the agent reads (default whole project)'),
  folder: z.string().describe('The agent\'s own folder, "agents/<ID>/"'),
  published: z
    .object({ at: z.string(), access, instructions: z.string() })
    .nullable()
    .describe('Frozen configuration of the publication (A7), null when never published'),
  suspended: z.boolean().describe('True when its owner left the project: its tokens are refused (agent_suspended) until an admin reassigns it'),
  created: z.string(),
  updated: z.string(),
});
export const ConversationSchema = z.object({
  id: z.string(),
  kind: z.enum(['channel', 'dm', 'dialog']),
  name: z.string().nullable(),
  members: z.array(z.object({ kind: z.enum(['user', 'agent']), id: z.string(), name: z.string() })),
  created: z.string(),
  writes: z
    .object({ used: z.number().int(), max: z.number().int(), resetsAt: z.string().nullable() })
    .optional()
    .describe('With `agent`: the changes that agent made in this conversation in the current window (A4), against the limit'),
});
export const TraceEntrySchema = z.object({
  id: z.string().describe('Tool call ID'),
  at: z.string(),
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  tool: z.string(),
  args: z.string().describe('Arguments in short (long strings are cut)'),
  result: z.string().describe('Answer in short, or the refusal'),
  refused: z.boolean(),
  durationMs: z.number(),
  path: z.string().nullable().describe('File the call touched, from the storage root'),
  version: z.number().int().nullable(),
  volume: z.string().nullable().optional().describe("The volume beyond the project the call worked in (the agent's own files, a knowledge base…), or null"),
  fileSettings: z
    .object({
      files: z.enum(['on', 'off']).describe('File access (A1)'),
      write: z.enum(['own', 'project']).describe('Where the agent writes'),
      read: z.enum(['project', 'own']).describe('What the agent reads'),
      volume: z.enum(['rw', 'ro', 'none']).optional().describe("The agent's access in a volume beyond projects, where its folder settings do not apply"),
    })
    .nullable()
    .optional()
    .describe("The agent's file settings when it made the call (seed 000: the trace shows them); null for a person's runtime or older calls"),
});
export const ToolResultSchema = z.object({
  text: z.string().describe('What the model reads: the answer, or "Refused: <reason>"'),
  refused: z.boolean(),
  callId: z.string().nullable().describe('ID of the call in the trace'),
  path: z.string().nullable(),
  version: z.number().int().nullable(),
  code: z.string().optional().describe('Stable error code of a refusal (e.g. version_conflict, rate_limited)'),
  data: z.record(z.string(), z.unknown()).optional().describe('Tool-specific structured data: a list, a tree, a diff, a cursor'),
  content: z
    .array(z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string().describe('Base64') }))
    .optional()
    .describe('Media beside the text for multimodal models: the image a read tool returns (PNG, JPEG, GIF, WebP within the read limit)'),
});

const settings = {
  instructions: z.string().max(inputMax.note).optional().describe('Instructions (system prompt) of the agent'),
  files: z.enum(['on', 'off']).optional().describe('File access on/off'),
  write: z.enum(['own', 'project']).optional().describe('Where the agent writes: own folder | whole project'),
  read: z.enum(['project', 'own']).optional().describe('What the agent reads: whole project | own folder'),
};
const agentId = z.string().max(inputMax.id).min(1).describe('Agent ID');

export const agentRoutes = {
  create: defineRoute({
    id: 'agents.create',
    errors: ['already_exists'],
    method: 'POST',
    path: '/projects/{project}/agents',
    summary: 'Create an agent',
    status: 201,
    input: z.object({ project: projectParam, name: z.string().max(inputMax.name).min(1).describe('Name of the agent'), ...settings }),
    output: AgentSchema,
  }),
  list: defineRoute({
    id: 'agents.list',
    method: 'GET',
    path: '/projects/{project}/agents',
    summary: 'Agents of the project',
    input: z.object({ project: projectParam }),
    output: z.array(AgentSchema),
  }),
  show: defineRoute({
    id: 'agents.show',
    method: 'GET',
    path: '/projects/{project}/agents/{id}',
    summary: 'One agent',
    input: z.object({ project: projectParam, id: agentId }),
    output: AgentSchema,
  }),
  update: defineRoute({
    id: 'agents.update',
    method: 'PATCH',
    path: '/projects/{project}/agents/{id}',
    summary: 'Change an agent (renaming keeps its folder)',
    input: z.object({ project: projectParam, id: agentId, name: z.string().max(inputMax.name).min(1).optional(), ...settings }),
    output: AgentSchema,
  }),
  copy: defineRoute({
    id: 'agents.copy',
    method: 'POST',
    path: '/projects/{project}/agents/{id}/copy',
    summary: 'Copy an agent: new ID, new empty folder',
    status: 201,
    input: z.object({ project: projectParam, id: agentId }),
    output: AgentSchema,
  }),
  remove: defineRoute({
    id: 'agents.delete',
    method: 'DELETE',
    path: '/projects/{project}/agents/{id}',
    summary: 'Delete an agent (its folder and files stay)',
    input: z.object({ project: projectParam, id: agentId }),
    output: z.object({ ok: z.literal(true) }),
  }),
  reassign: defineRoute({
    id: 'agents.reassign',
    method: 'POST',
    path: '/projects/{project}/agents/{id}/reassign',
    summary: 'Give an agent to another member of the project (project admins); a suspended agent acts again',
    description: 'An agent whose owner was removed from the project is suspended (issue 26) until an admin reassigns or deletes it.',
    input: z.object({
      project: projectParam,
      id: agentId,
      owner: z.string().max(inputMax.name).min(1).describe('The new owner: a member of the project, by name or ID'),
    }),
    output: AgentSchema,
  }),
  publish: defineRoute({
    id: 'agents.publish',
    method: 'POST',
    path: '/projects/{project}/agents/{id}/publish',
    summary: 'Publish: freeze the access settings and instructions (A7)',
    description: 'Tokens created with `published: true` for this agent act with the frozen settings; other tokens act with the live ones.',
    input: z.object({ project: projectParam, id: agentId }),
    output: AgentSchema,
  }),
};

const ChangeVersionSchema = z.object({ version: z.number().int(), size: z.number().int() });

const ConversationChangeSchema = z.object({
  ref: z.string().describe('What `items` of the revert names: file:<path>, wiki:<path> or memory:<path>'),
  kind: z.enum(['file', 'wiki', 'memory']),
  path: z.string().describe('Current path (memory: AGENTS.md, SOUL.md:<agent>, MEMORY.md:<conversation>)'),
  movedFrom: z.string().nullable().describe('Path before the conversation moved it'),
  movedSince: z.string().nullable().describe('Path the conversation left a file at, when a person moved it since (path is where it is now)'),
  before: ChangeVersionSchema.nullable().describe('Version before the conversation; null when it created the item'),
  after: ChangeVersionSchema.nullable().describe('The conversation’s last version; null when it deleted the item'),
  current: ChangeVersionSchema.nullable().describe('Version now; null when it no longer exists'),
  status: z.enum(['revertible', 'conflict', 'reverted', 'unrecoverable']),
  changedBy: z.array(z.string()).describe('Who changed it after the conversation'),
  diff: z.string().nullable().describe('Unified diff from before to after; null for binary or large files'),
  binary: z.boolean(),
  note: z.string(),
});

const RevertResultSchema = z.object({
  ref: z.string(),
  kind: z.enum(['file', 'wiki', 'memory']),
  path: z.string(),
  status: z.enum(['reverted', 'conflict', 'unchanged', 'unrecoverable', 'failed']),
  message: z.string(),
  version: z.number().int().nullable(),
});

export const conversationRoutes = {
  create: defineRoute({
    id: 'conversations.create',
    method: 'POST',
    path: '/projects/{project}/conversations',
    summary: 'Create a channel, direct conversation or agent dialog',
    status: 201,
    input: z.object({
      project: projectParam,
      channel: z.string().max(inputMax.name).optional().describe('Channel name; absent for a dialog or direct conversation'),
      members: z.array(z.string().max(inputMax.name)).optional().describe('User names/IDs and agent IDs; you are always a participant'),
      kind: z.enum(['channel', 'dm', 'dialog']).optional(),
    }),
    output: ConversationSchema,
  }),
  list: defineRoute({
    id: 'conversations.list',
    method: 'GET',
    path: '/projects/{project}/conversations',
    summary: 'Conversations you take part in (admins: all)',
    input: z.object({
      project: projectParam,
      agent: z.string().max(inputMax.name).optional().describe('Only those this agent takes part in, with its write counts'),
    }),
    output: z.array(ConversationSchema),
  }),
  trace: defineRoute({
    id: 'conversations.trace',
    method: 'GET',
    path: '/projects/{project}/conversations/{id}/trace',
    summary: 'Tool calls made in a conversation, oldest first',
    input: z.object({
      project: projectParam,
      id: z.string().max(inputMax.id).min(1),
      limit: z.coerce.number().int().min(1).max(10000).optional(),
      after: z.string().max(inputMax.id).optional().describe('Cursor: the last call ID seen'),
    }),
    output: z.object({ entries: z.array(TraceEntrySchema), nextCursor: z.string().nullable() }),
  }),
  changes: defineRoute({
    id: 'conversations.changes',
    method: 'GET',
    path: '/projects/{project}/conversations/{id}/changes',
    summary: 'Review every change a conversation made (files, wiki, memory) as one diff',
    description:
      'B11. Each item the conversation wrote, moved or deleted, with its version before the conversation, the conversation’s last version, the current one, a unified diff and what undo would do. Items you may not read are left out. Editors and admins who may see the conversation; agents may not.',
    input: z.object({ project: projectParam, id: z.string().max(inputMax.id).min(1).describe('Conversation ID or channel name') }),
    output: z.object({ conversation: z.string(), items: z.array(ConversationChangeSchema) }),
  }),
  revert: defineRoute({
    id: 'conversations.revert',
    method: 'POST',
    path: '/projects/{project}/conversations/{id}/revert',
    summary: 'Undo a conversation: restore each item it changed, refusing those changed since',
    description:
      'B11. Restores each item (or those named in `items`) to its state before the conversation, as new versions; an item someone changed since is refused (`conflict`) and left as it is. Answers one result per item.',
    input: z.strictObject({
      project: projectParam,
      id: z.string().max(inputMax.id).min(1).describe('Conversation ID or channel name'),
      items: z.array(z.string().max(inputMax.id).min(1)).max(10000).optional().describe('Only these items (their `ref` from the review); absent = all'),
    }),
    output: z.object({ conversation: z.string(), results: z.array(RevertResultSchema) }),
  }),
};

export const toolRoutes = {
  list: defineRoute({
    id: 'tools.list',
    method: 'GET',
    path: '/projects/{project}/tools',
    summary: 'Schemas of the agent file tools (for function-calling frameworks)',
    input: z.object({
      project: projectParam,
      format: z.enum(['mcp', 'openai', 'anthropic']).optional().describe('Shape of the schemas (default mcp)'),
      strict: z
        .enum(['true', 'false'])
        .optional()
        .describe('"true": schemas within the vendor\'s strict mode (openai, anthropic), marked strict: true; the server still checks the full schema'),
    }),
    output: z.array(z.unknown()),
  }),
  call: defineRoute({
    id: 'tools.call',
    method: 'POST',
    path: '/projects/{project}/tools/{name}/call',
    summary: 'Run one tool call as the calling agent and get the text for the model',
    description:
      'With an agent token the call acts as that agent in the conversation of X-Stoa-Conversation (or `conversation`). A refusal is a normal 200 answer whose text starts with "Refused:". With a user token (editor or admin) the call is a runtime write that is not an agent of the project: files get "Created by: agent" with the process, node and conversation IDs given.',
    // Strict: a misspelt field (e.g. "args") is refused, never dropped.
    input: z.strictObject({
      project: projectParam,
      name: z.string().max(inputMax.name).describe('Tool name, e.g. ws_write_file'),
      arguments: z.record(z.string().max(inputMax.name), z.unknown()).default({}).describe('Tool arguments as the model produced them'),
      conversation: z.string().max(inputMax.id).optional().describe('Conversation the call belongs to (else X-Stoa-Conversation)'),
      process: z.string().max(inputMax.id).optional().describe('Runtime process ID (attribution)'),
      node: z.string().max(inputMax.id).optional().describe('Runtime node ID (attribution)'),
    }),
    output: ToolResultSchema,
  }),
};
