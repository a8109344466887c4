import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { effectiveScopes } from '../policies/agent-scopes.js';

/**
 * The folder whose documents the caller may see in chunk search ('' = whole storage): people who may read
 * files see everything; agents their read scope (A2).
 */
export function chunkReadScope(ctx: Ctx): string {
  if (ctx.actor.kind === 'agent') {
    assertCan(ctx.actor, 'file.read', { kind: 'file', path: effectiveScopes(ctx.actor.agentId, ctx.actor.access).read || 'x' });
    return effectiveScopes(ctx.actor.agentId, ctx.actor.access).read;
  }
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: '' });
  return '';
}
