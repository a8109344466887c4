import { StoaError } from '@stoa/contract';
import { isProjectAdmin, type Actor } from '../actors.js';

/** The three memory files of M1. There is no workspace-wide MEMORY.md. */
export type MemoryFileName = 'SOUL.md' | 'AGENTS.md' | 'MEMORY.md';

export type MemoryAction = 'memory.read' | 'memory.write';

/**
 * A memory file as the policy sees it. The door-independent facts that need the database (the agent's owner,
 * whether the actor takes part in the conversation) are looked up by the caller first, so `can` stays pure.
 */
export interface MemoryResource {
  kind: 'memory';
  file: MemoryFileName;
  /** SOUL.md: whose it is. */
  agentId?: string;
  /** SOUL.md: the owner of that agent (a user ID), if any. */
  agentOwnerId?: string | null;
  /** MEMORY.md: which conversation. */
  conversationId?: string;
  /** MEMORY.md: whether the actor is one of the conversation's participants. */
  participant?: boolean;
}

function isMember(actor: Actor): boolean {
  return actor.kind === 'agent' || actor.superuser === true || actor.role !== null;
}

function isViewer(actor: Actor): boolean {
  return actor.kind === 'user' && !actor.superuser && actor.role === 'viewer';
}

/**
 * Who may read and edit memory files (M1), decided here once for every door:
 *
 * | file      | read                                                   | edit                                             |
 * |-----------|--------------------------------------------------------|--------------------------------------------------|
 * | SOUL.md   | every member (it is the agent's instructions, which members see anyway); the agent itself | the agent's owner (editor or admin), admins, the agent itself |
 * | AGENTS.md | every member and every agent of the workspace         | admins                                           |
 * | MEMORY.md | the conversation's participants, people and agents; admins | participants (people need editor or admin; viewers read only); admins |
 *
 * Agents never read another agent's SOUL.md. Viewers are read-only everywhere (§0).
 *
 * @example
 * memoryDecision(agent, 'memory.write', { kind: 'memory', file: 'SOUL.md', agentId: agent.agentId }) // null (allowed)
 * memoryDecision(viewer, 'memory.write', { kind: 'memory', file: 'AGENTS.md' }) // StoaError forbidden
 */
export function memoryDecision(actor: Actor, action: MemoryAction, r: MemoryResource): StoaError | null {
  if (!isMember(actor)) return new StoaError('forbidden', 'you are not a member of this project');
  const write = action === 'memory.write';
  switch (r.file) {
    case 'SOUL.md': {
      if (actor.kind === 'agent') {
        if (actor.agentId === r.agentId) return null;
        return new StoaError('forbidden', write ? 'you may edit only your own SOUL.md' : 'you may read only your own SOUL.md');
      }
      if (!write || isProjectAdmin(actor)) return null;
      if (isViewer(actor)) return new StoaError('forbidden', 'viewers may read memory files but not edit them');
      if (r.agentOwnerId && r.agentOwnerId === actor.userId) return null;
      return new StoaError('forbidden', "only the agent's owner, an admin or the agent itself may edit this SOUL.md");
    }
    case 'AGENTS.md':
      if (!write || isProjectAdmin(actor)) return null;
      return new StoaError(
        'forbidden',
        actor.kind === 'agent' ? 'AGENTS.md is edited by workspace admins; agents only read it' : 'only workspace admins may edit AGENTS.md',
      );
    case 'MEMORY.md': {
      if (isProjectAdmin(actor)) return null;
      if (!r.participant) return new StoaError('forbidden', 'you are not a participant of this conversation, so you may not use its MEMORY.md');
      if (write && isViewer(actor)) return new StoaError('forbidden', 'viewers may read memory files but not edit them');
      return null;
    }
  }
  return new StoaError('forbidden');
}
