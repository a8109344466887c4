import { agentRoutes, conversationRoutes, toolRoutes } from '@stoa/contract';
import { copyAgent, createAgent, deleteAgent, listAgents, publishAgent, reassignAgent, showAgent, updateAgent } from '../agents/agents.js';
import { createConversation, listConversations } from '../conversations/conversations.js';
import { listTrace } from '../conversations/trace.js';
import { conversationChanges } from '../conversations/conversation-changes.js';
import { revertConversation } from '../conversations/revert-conversation.js';
import { withConversation } from '../tools/audience.js';
import { allToolsIn } from '../tools/all-tools.js';
import { callTool, findTool } from './tool-ops.js';
import { changes, projectOperation, reads, type Operation } from './operation.js';

const a = agentRoutes;
const c = conversationRoutes;

/** Agents, conversations (with their trace) and the tool routes. */
export const agentOperations: Operation[] = [
  projectOperation(a.create, changes('agent.manage', null, 'none'), (ctx, i) =>
    createAgent(ctx, { name: i.name, instructions: i.instructions, files: i.files, write: i.write, read: i.read }),
  ),
  projectOperation(a.list, reads('project.read'), (ctx) => listAgents(ctx)),
  projectOperation(a.show, reads('project.read'), (ctx, i) => showAgent(ctx, i.id)),
  projectOperation(a.update, changes('agent.manage', null, 'none'), (ctx, i) =>
    updateAgent(ctx, i.id, { name: i.name, instructions: i.instructions, files: i.files, write: i.write, read: i.read }),
  ),
  projectOperation(a.copy, changes('agent.manage', null, 'none'), (ctx, i) => copyAgent(ctx, i.id)),
  projectOperation(a.remove, changes('agent.manage', null, 'none'), async (ctx, i) => {
    await deleteAgent(ctx, i.id);
    return { ok: true as const };
  }),
  projectOperation(a.publish, changes('agent.manage', null, 'none'), (ctx, i) => publishAgent(ctx, i.id)),
  projectOperation(a.reassign, changes('member.manage', null, 'none'), (ctx, i) => reassignAgent(ctx, i.id, { owner: i.owner })),
  projectOperation(c.create, changes('project.read', null, 'none'), (ctx, i) =>
    createConversation(ctx, { channel: i.channel, members: i.members, kind: i.kind }),
  ),
  projectOperation(c.list, reads('project.read'), (ctx, i) => listConversations(ctx, { agent: i.agent })),
  projectOperation(c.trace, reads('project.read'), (ctx, i) => listTrace(ctx, i.id, { limit: i.limit, after: i.after })),
  // B11: only people undo; the core refuses agents itself, so an agent's use counts nothing.
  projectOperation(c.changes, reads('file.write'), (ctx, i) => conversationChanges(ctx, { conversation: i.id })),
  projectOperation(c.revert, changes('file.write', 'conversation.revert', 'none'), (ctx, i) => revertConversation(ctx, { conversation: i.id, items: i.items })),
  projectOperation(toolRoutes.list, reads('project.read'), async (ctx, i) => allToolsIn(ctx, i.format ?? 'mcp', { strict: i.strict === 'true' })),
  // The tool is an entry of the table of its own (tool-ops.ts): callTool applies its traits, the tool runner traces it.
  projectOperation(
    toolRoutes.call,
    { ...changes('project.read', null, 'none'), mutatesWith: (ctx, i: { name: string }) => findTool(ctx, i.name)?.traits.mutates ?? false },
    async (ctx, i) => {
      const withConv = await withConversation(ctx, { conversationId: i.conversation, processId: i.process, nodeId: i.node });
      const t = await callTool(withConv, i.name, i.arguments, { runtime: { processId: i.process, nodeId: i.node, conversationId: i.conversation } });
      return {
        text: t.text,
        refused: t.refused,
        callId: t.callId,
        path: t.path,
        version: t.version,
        ...(t.code ? { code: t.code } : {}),
        ...(t.data ? { data: t.data } : {}),
        ...(t.content ? { content: t.content } : {}),
      };
    },
  ),
];
