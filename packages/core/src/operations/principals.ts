import { StoaError } from '@stoa/contract';
import type { UserActor } from '../actors.js';
import type { Platform } from '../platform.js';
import type { Principal } from '../projects/tokens.js';
import { listProjects } from '../projects/projects.js';
import { toProjectRow, type ProjectRow } from '../projects/project-row.js';

function userActorOf(principal: Extract<Principal, { kind: 'user' }>): UserActor {
  return { kind: 'user', userId: principal.userId, name: principal.name, role: null, superuser: principal.superuser };
}

/**
 * The principal of an agent of the data folder, for a door that names the agent instead of presenting its token
 * (the CLI's local mode with `--agent`).
 *
 * @example
 * const principal = await agentPrincipal(platform, 'agt_a3B9kLm2');
 */
export async function agentPrincipal(platform: Platform, agentId: string): Promise<Principal> {
  const a = await platform.db.kysely.selectFrom('agents').select(['id', 'project_id']).where('id', '=', agentId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist`);
  return { kind: 'agent', agentId: a.id, projectId: a.project_id };
}

/** The projects a principal works in: an agent its own one (as an admin sees it), a person those they are a member of. */
export async function projectsOf(platform: Platform, principal: Principal): Promise<Array<ProjectRow & { role?: string }>> {
  if (principal.kind === 'agent') {
    const p = await platform.db.kysely.selectFrom('projects').selectAll().where('id', '=', principal.projectId).executeTakeFirst();
    if (!p) throw new StoaError('not_found', 'the agent\'s project does not exist');
    return [toProjectRow(p)];
  }
  if (!principal.userId) throw new StoaError('unauthorized');
  return listProjects(platform, userActorOf(principal));
}

/** Who a principal is, as `auth.me` answers it. */
export async function describePrincipal(platform: Platform, principal: Principal): Promise<{ kind: 'user'; id: string; name: string } | { kind: 'agent'; id: string; name: string; projectId: string }> {
  if (principal.kind === 'user') return { kind: 'user', id: principal.userId, name: principal.name };
  const a = await platform.db.kysely.selectFrom('agents').select(['name']).where('id', '=', principal.agentId).executeTakeFirst();
  if (!a) throw new StoaError('unauthorized', 'the agent of this token no longer exists');
  return { kind: 'agent', id: principal.agentId, name: a.name, projectId: principal.projectId };
}

export { userActorOf };
