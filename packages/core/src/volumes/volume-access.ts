import { StoaError } from '@stoa/contract';
import type { Actor, AgentActor, Role, UserActor } from '../actors.js';
import type { Platform } from '../platform.js';
import type { Principal } from '../projects/tokens.js';
import type { VolumeOwners } from '../projects/project-row.js';
import { loadAgentActor, type ContextOptions } from '../context-agent.js';

/** One answer for every refusal to reach a volume, so nobody learns that someone else's volume exists (R1). */
export function noSuchVolume(): StoaError {
  return new StoaError('not_found', 'there is no such volume, or you may not see it');
}

/** The agent of a volume in a live project; `deleted` when the agent itself was deleted (decision 0016). */
async function agentOf(platform: Platform, id: string | null) {
  if (!id) return undefined;
  const row = await platform.db.kysely
    .selectFrom('agents')
    .innerJoin('projects', 'projects.id', 'agents.project_id')
    .select(['agents.id', 'agents.project_id', 'agents.owner_id', 'agents.deleted_at', 'agents.suspended_at'])
    .where('agents.id', '=', id)
    .where('projects.deleting_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, project_id: row.project_id, owner_id: row.owner_id, deleted: row.deleted_at !== null, suspended: row.suspended_at !== null };
}

async function liveProject(platform: Platform, id: string | null): Promise<boolean> {
  if (!id) return false;
  const row = await platform.db.kysely
    .selectFrom('projects')
    .select('id')
    .where('id', '=', id)
    .where('catalog', '=', 'projects')
    .where('deleting_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** A person's role in a project: their membership, or admin for the installation administrator (not a confined token). */
async function roleIn(platform: Platform, principal: Extract<Principal, { kind: 'user' }>, projectId: string): Promise<Role | null> {
  if (principal.projectId && principal.projectId !== projectId) return null;
  const m = await platform.db.kysely
    .selectFrom('members')
    .select('role')
    .where('project_id', '=', projectId)
    .where('user_id', '=', principal.userId)
    .executeTakeFirst();
  if (m) return m.role as Role;
  return principal.superuser ? 'admin' : null;
}

function person(principal: Extract<Principal, { kind: 'user' }>, role: Role): UserActor {
  // Never the superuser flag inside a volume: a role here is derived from the volume's owners alone.
  return { kind: 'user', userId: principal.userId, name: principal.name, role, superuser: false };
}

async function agentIn(platform: Platform, agentId: string, opts: ContextOptions, volume: 'rw' | 'ro' | 'none' | 'project'): Promise<AgentActor> {
  const actor = await loadAgentActor(platform, agentId, opts);
  if (volume === 'project') return actor;
  return { ...actor, access: { ...actor.access, volume } };
}

/**
 * Who the caller is inside a volume beyond projects (R1), derived from the volume's typed owners on every request
 * (R3) — the one place these rules live:
 * - `users`: the person alone, as admin, with any token of theirs — one minted inside a project too, since the
 *   volume belongs to no project (issue 29) — and nobody else, not the installation administrator.
 * - `user-xperts` (a person's private agent): the person while they are a member of the agent's project — admin
 *   when they own the agent, else with their project role (issue 26: nobody gains rights through another
 *   person's agent); the agent itself reads and writes it when the person is its owner and it is not suspended.
 * - `xperts` (an agent's own files): the agent reads and writes all of it (its file-access switch and limits
 *   still apply); the agent's owner while a member of its project, and its project's admins, may read it.
 * - once the agent is deleted (decision 0016), both keep only their people: the agent's owner and its project's
 *   admins read its `xperts` volume, the person reads their `user-xperts` one — nothing is written there any
 *   more; `deleteVolume` lets the same people remove it as a whole.
 * - `knowledges`, `skills`: the members of their project with their roles; the project's agents with their
 *   project-wide settings (read, and write when they may write the whole project), nothing when confined to
 *   their own folder.
 * Anyone else gets `not_found`.
 */
export async function volumeActor(platform: Platform, principal: Principal, v: VolumeOwners, opts: ContextOptions = {}): Promise<Actor> {
  const published = principal.kind === 'agent' ? (principal.published ?? opts.published) : opts.published;
  const aopts = { ...opts, published };
  switch (v.catalog) {
    case 'users':
      if (principal.kind === 'user' && principal.userId === v.userId) return person(principal, 'admin');
      throw noSuchVolume();
    case 'user-xperts': {
      const agent = await agentOf(platform, v.xpertId);
      if (!agent || agent.project_id !== v.parentProjectId) throw noSuchVolume();
      if (principal.kind === 'user') {
        if (principal.userId !== v.userId || (principal.projectId && principal.projectId !== agent.project_id)) throw noSuchVolume();
        // Membership is the root of reach (issue 26): no role in the agent's project, no volume — owner or not.
        // The agent's owner is admin of theirs; anyone else keeps the role they have in the project, no more.
        const role = await roleIn(platform, { ...principal, superuser: false }, agent.project_id);
        if (!role) throw noSuchVolume();
        if (agent.deleted || agent.suspended) return person(principal, 'viewer');
        return person(principal, agent.owner_id === principal.userId ? 'admin' : role);
      }
      if (!agent.deleted && !agent.suspended && principal.agentId === agent.id && agent.owner_id !== null && agent.owner_id === v.userId)
        return agentIn(platform, agent.id, aopts, 'rw');
      throw noSuchVolume();
    }
    case 'xperts': {
      const agent = await agentOf(platform, v.xpertId);
      if (!agent || agent.project_id !== v.parentProjectId) throw noSuchVolume();
      if (principal.kind === 'agent') {
        if (!agent.deleted && principal.agentId === agent.id) return agentIn(platform, agent.id, aopts, 'rw');
        throw noSuchVolume();
      }
      if (principal.projectId && principal.projectId !== agent.project_id) throw noSuchVolume();
      const role = await roleIn(platform, principal, agent.project_id);
      if (role === 'admin' || (role && agent.owner_id === principal.userId)) return person(principal, 'viewer');
      throw noSuchVolume();
    }
    case 'knowledges':
    case 'skills': {
      if (!(await liveProject(platform, v.parentProjectId))) throw noSuchVolume();
      if (principal.kind === 'agent') {
        if (principal.projectId !== v.parentProjectId) throw noSuchVolume();
        const a = await loadAgentActor(platform, principal.agentId, aopts);
        const mode = a.access.read === 'own' ? 'none' : a.access.write === 'project' ? 'project' : 'ro';
        return mode === 'project' ? a : { ...a, access: { ...a.access, volume: mode } };
      }
      const role = await roleIn(platform, principal, v.parentProjectId!);
      if (!role) throw noSuchVolume();
      return person(principal, role);
    }
  }
}
