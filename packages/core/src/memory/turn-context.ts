import { StoaError } from '@stoa/contract';
import { loadAgentActor } from '../context.js';
import { findVisibleConversation, isParticipant } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';

/**
 * The context a hosted agent's turn runs in: that agent, acting in that conversation. An agent token may only
 * run its own turns; a person may run the turns of an agent they manage (its owner, or an admin) — the hosted
 * runtime — and the saves are still the agent's, with the conversation (B9). The agent must take part in
 * the conversation.
 *
 * @example
 * const agentCtx = await turnContext(ownerCtx, { agent: 'agt_a3B9kLm2', conversation: 'conv_x' });
 */
export async function turnContext(ctx: Ctx, input: { agent?: string; conversation?: string }): Promise<Ctx> {
  const a = ctx.actor;
  let agentId = input.agent?.trim() || undefined;
  if (a.kind === 'agent') {
    if (agentId && agentId !== a.agentId) throw new StoaError('forbidden', 'an agent may run only its own turns');
    agentId = a.agentId;
  }
  if (!agentId) throw new StoaError('bad_request', 'a turn needs the agent: --agent AGENT_ID');
  const convRef = input.conversation?.trim() || (a.kind === 'agent' ? (a.conversationId ?? undefined) : undefined);
  if (!convRef) throw new StoaError('bad_request', 'a turn needs its conversation: --conversation ID');
  // The caller must see the conversation (a turn hands out its MEMORY.md); to anyone else it does not exist (issue 27).
  const conv = await findVisibleConversation(ctx, convRef);
  if (a.kind === 'user') {
    const row = await ctx.platform.db.kysely
      .selectFrom('agents')
      .select(['owner_id'])
      .where('id', '=', agentId)
      .where('project_id', '=', ctx.project.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new StoaError('not_found', `agent "${agentId}" does not exist in this project`);
    assertCan(a, 'agent.manage', { kind: 'agent', ownerId: row.owner_id });
  }
  const actor = await loadAgentActor(ctx.platform, agentId, {
    conversationId: conv.id,
    processId: a.kind === 'agent' ? a.processId : undefined,
    nodeId: a.kind === 'agent' ? a.nodeId : undefined,
  });
  const agentCtx: Ctx = { ...ctx, actor };
  if (!(await isParticipant(agentCtx, conv.id))) throw new StoaError('forbidden', `agent "${agentId}" is not a participant of conversation "${conv.id}"`);
  return agentCtx;
}
