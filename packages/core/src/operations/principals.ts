import { StoaError } from '@stoa/contract';
import type { Platform } from '../platform.js';
import { isInstallationAdminPrincipal, type Principal } from '../projects/tokens.js';

/**
 * The principal of an agent of the data folder, for a door that names the agent instead of presenting its token
 * (the CLI's local mode with `--agent`).
 *
 * @example
 * const principal = await agentPrincipal(platform, 'agt_a3B9kLm2');
 */
export async function agentPrincipal(platform: Platform, agentId: string): Promise<Principal> {
  const a = await platform.db.kysely
    .selectFrom('agents')
    .select(['id', 'project_id'])
    .where('id', '=', agentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist`);
  return { kind: 'agent', agentId: a.id, projectId: a.project_id };
}

/** Who a principal is, as `auth.me` answers it. */
export async function describePrincipal(
  platform: Platform,
  principal: Principal,
): Promise<{ kind: 'user'; id: string; name: string; installationAdmin?: true } | { kind: 'agent'; id: string; name: string; projectId: string }> {
  if (principal.kind === 'user') {
    return {
      kind: 'user',
      id: principal.userId,
      name: principal.name,
      ...(isInstallationAdminPrincipal(principal) ? { installationAdmin: true as const } : {}),
    };
  }
  const a = await platform.db.kysely.selectFrom('agents').select(['name']).where('id', '=', principal.agentId).executeTakeFirst();
  if (!a) throw new StoaError('unauthorized', 'the agent of this token no longer exists');
  return { kind: 'agent', id: principal.agentId, name: a.name, projectId: principal.projectId };
}
