import { StoaError } from '@stoa/contract';
import type { Actor, Role } from '../actors.js';
import { isInside } from '../paths.js';
import { effectiveScopes } from './agent-scopes.js';
import { memoryDecision, type MemoryAction, type MemoryResource } from './memory.js';

/**
 * The one policy module: `can(actor, action, resource)` answers for every area. A `null` answer means allowed;
 * otherwise the error to throw (its message is what a person or an agent reads, so it names no host paths).
 */
export type Action =
  | 'file.read'
  | 'file.write'
  | 'file.delete'
  | 'file.move'
  | 'audit.read'
  | 'project.admin'
  | 'project.read'
  | 'member.manage'
  | 'token.create'
  | 'agent.manage'
  | MemoryAction
  | 'wiki.read'
  | 'wiki.write';

export type Resource = { kind: 'file'; path: string } | { kind: 'project' } | { kind: 'agent'; ownerId: string | null } | MemoryResource;

const roleRank: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

function hasRole(actor: Actor, min: Role): boolean {
  if (actor.kind !== 'user') return false;
  if (actor.superuser) return true;
  return actor.role !== null && roleRank[actor.role] >= roleRank[min];
}

function agentFileDecision(actor: Extract<Actor, { kind: 'agent' }>, action: Action, path: string): StoaError | null {
  if (actor.access.volume === 'none') return new StoaError('forbidden', 'your file access does not reach this volume (it reaches your own folder only)');
  if (!actor.access.enabled) return new StoaError('forbidden', 'file access is turned off for this agent');
  if (actor.access.volume === 'ro' && action !== 'file.read') return new StoaError('forbidden', 'you may read this volume but not change it');
  const scopes = effectiveScopes(actor.agentId, actor.access);
  const where = (folder: string) => (folder === '' ? 'the project storage' : `your folder ${folder}/`);
  switch (action) {
    case 'file.read':
      return isInside(path, scopes.read) ? null : new StoaError('forbidden', `"${path}" is outside what you may read (${where(scopes.read)})`);
    case 'file.write':
      return isInside(path, scopes.write) ? null : new StoaError('forbidden', `"${path}" is outside where you may write (${where(scopes.write)})`);
    case 'file.move':
      return isInside(path, scopes.write) && scopes.delete !== null && isInside(path, scopes.delete)
        ? null
        : new StoaError('forbidden', `you may not move "${path}"`);
    case 'file.delete':
      if (scopes.delete === null) return new StoaError('forbidden', 'deleting files is not available when the agent reads and writes the whole project');
      return isInside(path, scopes.delete) ? null : new StoaError('forbidden', `"${path}" is outside your folder ${scopes.delete}/; you may delete only there`);
    default:
      return new StoaError('forbidden', 'agents may not do this');
  }
}

/**
 * @example
 * can(viewer, 'file.write', { kind: 'file', path: 'a.md' }) // StoaError forbidden
 */
export function can(actor: Actor, action: Action, resource: Resource): StoaError | null {
  if (resource.kind === 'file' && actor.kind === 'agent') return agentFileDecision(actor, action, resource.path);
  if (resource.kind === 'memory')
    return action === 'memory.read' || action === 'memory.write' ? memoryDecision(actor, action, resource) : new StoaError('forbidden');
  switch (action) {
    // The wiki is shared by every member and every agent of the project (W5, W7); channel pages are
    // narrowed further by participation in wiki/visibility.ts.
    case 'wiki.read':
      if (actor.kind === 'agent') return null;
      return hasRole(actor, 'viewer') ? null : new StoaError('forbidden', 'you are not a member of this project');
    case 'wiki.write':
      if (actor.kind === 'agent') return null;
      if (!hasRole(actor, 'viewer')) return new StoaError('forbidden', 'you are not a member of this project');
      return hasRole(actor, 'editor') ? null : new StoaError('forbidden', 'viewers may read the wiki but not change it; an editor or admin can');
    case 'file.read':
    case 'project.read':
      return hasRole(actor, 'viewer') ? null : new StoaError('forbidden', 'you are not a member of this project');
    case 'file.write':
    case 'file.delete':
    case 'file.move':
      if (!hasRole(actor, 'viewer')) return new StoaError('forbidden', 'you are not a member of this project');
      return hasRole(actor, 'editor') ? null : new StoaError('forbidden', 'viewers may not change files; an editor or admin can');
    case 'agent.manage':
      if (hasRole(actor, 'admin')) return null;
      if (actor.kind === 'user' && resource.kind === 'agent' && resource.ownerId === actor.userId && hasRole(actor, 'editor')) return null;
      if (resource.kind === 'project' && hasRole(actor, 'editor')) return null;
      return new StoaError('forbidden', "only the agent's owner or an admin may change this agent");
    case 'audit.read':
    case 'project.admin':
    case 'member.manage':
      return hasRole(actor, 'admin') ? null : new StoaError('forbidden', 'only project admins may do this');
    case 'token.create':
      return hasRole(actor, 'viewer') ? null : new StoaError('forbidden', 'you are not a member of this project');
  }
  return new StoaError('forbidden');
}

/** Throws the refusal of `can`, if any. */
export function assertCan(actor: Actor, action: Action, resource: Resource): void {
  const e = can(actor, action, resource);
  if (e) throw e;
}
