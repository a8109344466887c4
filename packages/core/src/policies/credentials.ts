import { StoaError } from '@stoa/contract';
import type { Actor, Role } from '../actors.js';

/**
 * The rules for credentials — who may mint, see and revoke which token, who may invite whom — written once.
 * The core operations (projects/tokens.ts, projects/invitations.ts, projects/members.ts) call these; no door
 * decides anything about tokens itself. docs/security.md states the same rules as a table.
 */

/** Whom a new token acts for. */
export type MintTarget = { kind: 'self' } | { kind: 'user'; userId: string } | { kind: 'agent'; ownerId: string | null };

/** A stored token as the rules see it. */
export interface TokenFacts {
  userId: string | null;
  agentId: string | null;
  /** The project the token is confined to (user tokens minted inside a project). */
  projectId: string | null;
  /** The project of the token's agent (agent tokens only). */
  agentProjectId: string | null;
  agentOwnerId: string | null;
}

const rank: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

/**
 * The installation administrator: a person acting with one of the installation's own superuser tokens (the
 * bootstrap token, `STOA_ADMIN_TOKEN`, the login link `serve` prints, local mode). Never decided by a name.
 */
export function isInstallationAdmin(actor: Actor): boolean {
  return actor.kind === 'user' && actor.superuser === true;
}

function roleAtLeast(actor: Actor, min: Role): boolean {
  if (actor.kind !== 'user') return false;
  if (isInstallationAdmin(actor)) return true;
  return actor.role !== null && rank[actor.role] >= rank[min];
}

/**
 * May the actor mint a token for `target` inside the context's project?
 * People mint their own; the agent's owner (an editor) or a project admin mints for the project's agents; a
 * token for another person only by the installation administrator (everyone else invites them instead).
 */
export function mintDecision(actor: Actor, target: MintTarget): StoaError | null {
  if (actor.kind !== 'user') return new StoaError('forbidden', 'agents may not create tokens');
  switch (target.kind) {
    case 'self':
      return null;
    case 'agent':
      if (roleAtLeast(actor, 'admin')) return null;
      if (target.ownerId === actor.userId && roleAtLeast(actor, 'editor')) return null;
      return new StoaError('forbidden', "only the agent's owner or a project admin may create tokens for this agent");
    case 'user':
      return isInstallationAdmin(actor)
        ? null
        : new StoaError(
            'forbidden',
            'only the installation administrator may create a token for another person; invite them instead (stoa invitations create)',
          );
  }
}

/**
 * Does the token's reach lie inside the project? Agent tokens reach their agent's project; user tokens minted
 * inside a project reach that project. A person's installation-wide token belongs to no project.
 */
export function tokenInProject(token: TokenFacts, projectId: string): boolean {
  return token.agentId !== null ? token.agentProjectId === projectId : token.projectId === projectId;
}

/**
 * May the actor see or revoke the token? Own tokens: always. Tokens of one's own agent: the owner.
 * A project admin: tokens whose reach lies inside its project. The installation administrator: any.
 * The refusal for a token outside what the actor may manage is `not_found`, so ids of other projects' tokens
 * cannot be probed.
 */
export function tokenManageDecision(actor: Actor, token: TokenFacts, projectId: string): StoaError | null {
  if (actor.kind !== 'user') return new StoaError('forbidden', 'agents may not manage tokens');
  if (token.userId !== null && token.userId === actor.userId) return null;
  if (isInstallationAdmin(actor)) return null;
  if (!tokenInProject(token, projectId)) return new StoaError('not_found', 'token does not exist');
  if (roleAtLeast(actor, 'admin')) return null;
  if (token.agentId !== null && token.agentOwnerId === actor.userId && roleAtLeast(actor, 'editor')) return null;
  return new StoaError('forbidden', "only the token's holder, the agent's owner or a project admin may revoke this token");
}

/** May the actor invite people into the context's project (with any role up to admin)? Project admins may. */
export function inviteDecision(actor: Actor): StoaError | null {
  return roleAtLeast(actor, 'admin') ? null : new StoaError('forbidden', 'only project admins may invite people');
}

/** What an invitation may be redeemed by. */
export type Redeemer = { kind: 'anonymous' } | { kind: 'user'; userId: string; name: string } | { kind: 'agent' };

/**
 * May the redeemer accept an invitation addressed to `userName` (null: anyone)? A person signed in accepts for
 * themself; someone with no token becomes a new person. Only a user that nobody has ever claimed (made by
 * "add member", no token, no other project) may be claimed anonymously — an existing person of the installation
 * is never taken over through an invitation.
 */
export function redeemDecision(redeemer: Redeemer, userName: string | null, existing: { claimed: boolean } | null): StoaError | null {
  if (redeemer.kind === 'agent') return new StoaError('forbidden', 'agents may not accept invitations');
  if (redeemer.kind === 'user') {
    return userName === null || userName === redeemer.name ? null : new StoaError('forbidden', 'this invitation is addressed to someone else');
  }
  if (existing && existing.claimed) {
    return new StoaError('already_exists', 'this user already exists; accept the invitation signed in as that user (with their own token)');
  }
  return null;
}
