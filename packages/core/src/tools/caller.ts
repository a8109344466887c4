import { StoaError } from '@stoa/contract';
import type { Attribution } from '../actors.js';
import type { Ctx } from '../platform.js';
import { agentFolder, effectiveScopes } from '../policies/agent-scopes.js';

/**
 * A runtime that calls the tools without being an agent of the project (a workflow engine with a member's
 * token, F6): its writes are tagged "agent" with these IDs.
 */
export interface RuntimeInfo {
  processId?: string | null;
  nodeId?: string | null;
  conversationId?: string | null;
}

/** Where a tool call may look and change files, derived once per call from the caller (A2). */
export interface ToolScopes {
  /** The caller's own folder (`agents/<ID>`), or null for a runtime that is not an agent. */
  own: string | null;
  read: string;
  write: string;
  /** Folder deletes are allowed in, or null when deleting is not available. */
  delete: string | null;
}

/**
 * The scopes of the caller: an agent's effective rights of A2, or, for a runtime acting with a member's
 * token, the whole storage (the member's role still decides through the policy).
 *
 * @example
 * toolScopes(agentCtx) // { own: 'agents/agt_a3B9kLm2', read: '', write: 'agents/agt_a3B9kLm2', delete: 'agents/agt_a3B9kLm2' }
 */
export function toolScopes(ctx: Ctx): ToolScopes {
  const a = ctx.actor;
  if (a.kind === 'user') return { own: null, read: '', write: '', delete: '' };
  if (!a.access.enabled) throw new StoaError('forbidden', 'file access is turned off for this agent; its owner can turn it on');
  // In a volume beyond projects (R1) there is no agents/<ID> folder: paths are from the volume's root (R2).
  return { own: a.access.volume ? null : agentFolder(a.agentId), ...effectiveScopes(a.agentId, a.access) };
}

/** Conversation the call counts and is traced in ('' when there is none). */
export function conversationOf(ctx: Ctx, runtime?: RuntimeInfo): string {
  if (ctx.actor.kind === 'agent') return ctx.actor.conversationId ?? '';
  return runtime?.conversationId ?? '';
}

/**
 * "Created by" of a tool write (F6): "agent: <name>" for an agent of the project; "agent" without a name,
 * with the process, node and conversation IDs, for a write that cannot be mapped to one.
 */
export function toolAttribution(ctx: Ctx, callId: string, runtime?: RuntimeInfo): Attribution {
  const a = ctx.actor;
  if (a.kind === 'agent') {
    return {
      kind: 'agent',
      id: a.agentId,
      label: a.name,
      meta: { conversationId: a.conversationId, toolCallId: callId, processId: a.processId ?? null, nodeId: a.nodeId ?? null },
    };
  }
  return {
    kind: 'unmapped_agent',
    id: null,
    label: null,
    meta: {
      processId: runtime?.processId ?? null,
      nodeId: runtime?.nodeId ?? null,
      conversationId: runtime?.conversationId ?? null,
      toolCallId: callId,
      via: a.name,
    },
  };
}
