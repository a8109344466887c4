import { StoaError } from '@stoa/contract';
import type { Role, UserActor } from './actors.js';
import type { Ctx, Platform } from './platform.js';
import { findProject, liveProjectById } from './projects/projects.js';
import { DEFAULT_PROJECT } from './projects/bootstrap.js';
import type { Principal } from './projects/tokens.js';
import { toProjectRow, type ProjectRow } from './projects/project-row.js';
import { loadAgentActor, type ContextOptions } from './context-agent.js';
import { isVolumeId, liveVolumeById } from './volumes/volume-row.js';
import { noSuchVolume, volumeActor } from './volumes/volume-access.js';

export { loadAgentActor, type ContextOptions } from './context-agent.js';

/**
 * Builds the per-request context from an authenticated principal. Never cached: the role and the agent's
 * settings are read fresh for each request (R3).
 *
 * @example
 * const ctx = await contextFor(platform, await authenticate(platform, token), { project: 'default' });
 */
export async function contextFor(platform: Platform, principal: Principal, opts: ContextOptions = {}): Promise<Ctx> {
  if (opts.project && isVolumeId(opts.project)) {
    // A volume beyond projects (R1): who the caller is there comes from its owners, read afresh (R3).
    const volume = await liveVolumeById(platform, opts.project);
    if (!volume?.volume) throw noSuchVolume();
    return { platform, actor: await volumeActor(platform, principal, volume.volume, opts), project: volume };
  }
  if (principal.kind === 'agent') {
    const actor = await loadAgentActor(platform, principal.agentId, { ...opts, published: principal.published ?? opts.published });
    const project = await liveProjectById(platform, principal.projectId);
    if (!project) throw new StoaError('not_found', "this agent's project does not exist");
    if (opts.project && opts.project !== project.id && opts.project !== project.name) {
      throw new StoaError('forbidden', 'this agent belongs to another project');
    }
    return { platform, actor, project };
  }
  const project = await projectOfUser(platform, principal, opts.project);
  const member = await platform.db.kysely
    .selectFrom('members')
    .select('role')
    .where('project_id', '=', project.id)
    .where('user_id', '=', principal.userId)
    .executeTakeFirst();
  if (!member && !principal.superuser) {
    // Same answer as a missing project, so non-members cannot probe which projects exist.
    throw new StoaError('not_found', `project "${opts.project ?? DEFAULT_PROJECT}" does not exist`);
  }
  const actor: UserActor = {
    kind: 'user',
    userId: principal.userId,
    name: principal.name,
    role: (member?.role as Role) ?? (principal.superuser ? 'admin' : null),
    superuser: principal.superuser,
  };
  return { platform, actor, project };
}

/**
 * The project a person's request acts on: the one a project-scoped token is confined to (docs/security.md),
 * the named one, or the default project (else the person's first project).
 */
async function projectOfUser(platform: Platform, principal: Extract<Principal, { kind: 'user' }>, wanted: string | undefined): Promise<ProjectRow> {
  if (principal.projectId) {
    // A token minted inside a project reaches only that project; elsewhere it sees nothing.
    const project = await liveProjectById(platform, principal.projectId);
    if (!project || (wanted && wanted !== project.id && wanted !== project.name))
      throw new StoaError('not_found', `project "${wanted ?? DEFAULT_PROJECT}" does not exist`);
    return project;
  }
  try {
    return await findProject(platform, wanted ?? DEFAULT_PROJECT);
  } catch (e) {
    if (wanted || principal.superuser) throw e;
    const first = await platform.db.kysely
      .selectFrom('projects')
      .innerJoin('members', 'members.project_id', 'projects.id')
      .selectAll('projects')
      .where('members.user_id', '=', principal.userId)
      .where('projects.catalog', '=', 'projects')
      .where('projects.deleting_at', 'is', null)
      .orderBy('projects.created_at')
      .executeTakeFirst();
    if (!first) throw e;
    return toProjectRow(first);
  }
}

/** The principal of the local administrator (local CLI mode works as this user). */
export async function localAdminPrincipal(platform: Platform): Promise<Principal> {
  const admin = await platform.db.kysely.selectFrom('users').select(['id', 'name']).where('name', '=', 'admin').executeTakeFirstOrThrow();
  return { kind: 'user', userId: admin.id, name: admin.name, superuser: true };
}
