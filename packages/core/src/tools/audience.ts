import { StoaError, type ToolAudience } from '@stoa/contract';
import type { Ctx } from '../platform.js';

/**
 * The calling agent's settings for the tool descriptions ("For you: …"), or undefined for people and runtimes.
 *
 * @example
 * exportTools('mcp', limits, toolAudience(ctx));
 */
export function toolAudience(ctx: Ctx): ToolAudience | undefined {
  const a = ctx.actor;
  return a.kind === 'agent' ? { agentId: a.agentId, enabled: a.access.enabled, write: a.access.write, read: a.access.read } : undefined;
}

/**
 * The context with the conversation (and runtime IDs) a single call names, for doors where the conversation
 * comes with the call rather than with the connection. The conversation must exist in the project.
 *
 * @example
 * const c = await withConversation(ctx, { conversationId: 'conv_…' });
 */
export async function withConversation(ctx: Ctx, o: { conversationId?: string; processId?: string; nodeId?: string }): Promise<Ctx> {
  const a = ctx.actor;
  if (a.kind !== 'agent' || (!o.conversationId && !o.processId && !o.nodeId)) return ctx;
  if (o.conversationId && o.conversationId !== a.conversationId) {
    const conv = await ctx.platform.db.kysely
      .selectFrom('conversations')
      .select('id')
      .where('id', '=', o.conversationId)
      .where('project_id', '=', ctx.project.id)
      .executeTakeFirst();
    if (!conv) throw new StoaError('not_found', `conversation "${o.conversationId}" does not exist in this project`);
  }
  return { ...ctx, actor: { ...a, conversationId: o.conversationId ?? a.conversationId, processId: o.processId ?? a.processId, nodeId: o.nodeId ?? a.nodeId } };
}
