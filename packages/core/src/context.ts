import type { Kysely } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { DB } from '@stoa/db';
import { hotQuery } from './hot-query.js';
import type { Role, UserActor } from './actors.js';
import type { Ctx, Platform } from './platform.js';
import { DEFAULT_PROJECT } from './projects/bootstrap.js';
import type { Principal } from './projects/tokens.js';
import { toProjectRow, type ProjectRow } from './projects/project-row.js';
import { loadAgentContext, type ContextOptions } from './context-agent.js';
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
    const { actor, project } = await loadAgentContext(platform, principal.agentId, principal.projectId, {
      ...opts,
      published: principal.published ?? opts.published,
    });
    if (!project) throw new StoaError('not_found', "this agent's project does not exist");
    if (opts.project && opts.project !== project.id && opts.project !== project.name) {
      throw new StoaError('forbidden', 'this agent belongs to another project');
    }
    return { platform, actor, project };
  }
  const { project, role } = await projectOfUser(platform, principal, opts.project);
  if (role === null && !principal.superuser) {
    // Same answer as a missing project, so non-members cannot probe which projects exist.
    throw new StoaError('not_found', `project "${opts.project ?? DEFAULT_PROJECT}" does not exist`);
  }
  const actor: UserActor = {
    kind: 'user',
    userId: principal.userId,
    name: principal.name,
    role: (role as Role | null) ?? (principal.superuser ? 'admin' : null),
    superuser: principal.superuser,
  };
  return { platform, actor, project };
}

/**
 * The projects with the person's role in each (null where they are not a member), read in the same statement as
 * the project: one statement fewer on every request (issue 30), and still read afresh each time (R3).
 */
function projectsWithRole(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('projects')
    .leftJoin('members', (join) => join.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', userId))
    .selectAll('projects')
    .select('members.role as member_role');
}

/** As findProject — by ID or name, a project (not a volume), not being deleted — with the role: every request runs it, so it is built once. */
const projectByNameWithRole = hotQuery((db, a: { user: string; nameOrId: string }) =>
  projectsWithRole(db, a.user)
    .where((eb) => eb.or([eb('projects.id', '=', a.nameOrId), eb('projects.name', '=', a.nameOrId)]))
    .where('projects.catalog', '=', 'projects')
    .where('projects.deleting_at', 'is', null),
);

/**
 * The project a person's request acts on, with their role there: the one a project-scoped token is confined to
 * (docs/security.md), the named one, or the default project (else the person's first project).
 */
async function projectOfUser(
  platform: Platform,
  principal: Extract<Principal, { kind: 'user' }>,
  wanted: string | undefined,
): Promise<{ project: ProjectRow; role: string | null }> {
  const withRole = (row: Parameters<typeof toProjectRow>[0] & { member_role: string | null }) => ({ project: toProjectRow(row), role: row.member_role });
  if (principal.projectId) {
    // A token minted inside a project reaches only that project; elsewhere it sees nothing.
    const row = await projectsWithRole(platform.db.kysely, principal.userId)
      .where('projects.id', '=', principal.projectId)
      .where('projects.deleting_at', 'is', null)
      .executeTakeFirst();
    if (!row || (wanted && wanted !== row.id && wanted !== row.name)) throw new StoaError('not_found', `project "${wanted ?? DEFAULT_PROJECT}" does not exist`);
    return withRole(row);
  }
  const nameOrId = wanted ?? DEFAULT_PROJECT;
  const [row] = await projectByNameWithRole(platform.db.kysely, { user: principal.userId, nameOrId });
  if (row) return withRole(row);
  const missing = new StoaError('not_found', `project "${nameOrId}" does not exist`);
  if (wanted || principal.superuser) throw missing;
  const first = await projectsWithRole(platform.db.kysely, principal.userId)
    .where('members.user_id', '=', principal.userId)
    .where('projects.catalog', '=', 'projects')
    .where('projects.deleting_at', 'is', null)
    .orderBy('projects.created_at')
    .executeTakeFirst();
  if (!first) throw missing;
  return withRole(first);
}

/** The principal of the local administrator (local CLI mode works as this user). */
export async function localAdminPrincipal(platform: Platform): Promise<Principal> {
  const admin = await platform.db.kysely.selectFrom('users').select(['id', 'name']).where('name', '=', 'admin').executeTakeFirstOrThrow();
  return { kind: 'user', userId: admin.id, name: admin.name, superuser: true };
}
