import type { AgentAccess } from '../actors.js';

/** The folder an agent owns: `agents/<agent ID>` (F3). */
export function agentFolder(agentId: string): string {
  return `agents/${agentId}`;
}

export interface EffectiveScopes {
  /** Folder the agent may read ('' = whole storage). */
  read: string;
  /** Folder the agent may write ('' = whole storage). */
  write: string;
  /** Folder the agent may delete in, or null when delete is not available (A2, last column). */
  delete: string | null;
}

/**
 * Effective rights of A2, row for row. The agent never writes where it cannot read, so "whole project"
 * writing with "own folder" reading collapses to the own folder.
 *
 * @example
 * effectiveScopes('agt_a3B9kLm2', { enabled: true, write: 'own', read: 'project' })
 * // { read: '', write: 'agents/agt_a3B9kLm2', delete: 'agents/agt_a3B9kLm2' }
 */
export function effectiveScopes(agentId: string, access: AgentAccess): EffectiveScopes {
  const own = agentFolder(agentId);
  // In a volume of its own the agent reaches all of it; read-only, it reads all of it (can() refuses the rest).
  if (access.volume === 'rw') return { read: '', write: '', delete: '' };
  if (access.volume === 'ro' || access.volume === 'none') return { read: '', write: '', delete: null };
  if (access.write === 'project' && access.read === 'project') return { read: '', write: '', delete: null };
  if (access.read === 'own') return { read: own, write: own, delete: own };
  return { read: '', write: own, delete: own };
}
