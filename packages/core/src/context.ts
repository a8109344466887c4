import { StoaError } from '@stoa/contract';
import type { AgentActor, Role, UserActor } from './actors.js';
import type { Ctx, Platform } from './platform.js';
import { findProject, liveProjectById } from './projects/projects.js';
import { DEFAULT_PROJECT } from './projects/bootstrap.js';
import type { Principal } from './projects/tokens.js';
import { toProjectRow, type ProjectRow } from './projects/project-row.js';

/** Options a door passes when it builds a context for one request. */
export interface ContextOptions {
  /** Project name or ID; the default project when absent (for agents: the agent's own project). */
  project?: string;
  /** Conversation the agent acts in (agent principals only). */
  conversationId?: string | null;
  processId?: string;
  nodeId?: string;
  /** Act with the agent's published (frozen) settings (A7); publication tokens set this. */
  published?: boolean;
}

/**
 * Builds the per-request context from an authenticated principal. Never cached: the role and the agent's
 * settings are read fresh for each request (R3).
 *
 * @example
 * const ctx = await contextFor(platform, await authenticate(platform, token), { project: 'default' });
 */
export async function contextFor(platform: Platform, principal: Principal, opts: ContextOptions = {}): Promise<Ctx> {
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
      .where('projects.deleting_at', 'is', null)
      .orderBy('projects.created_at')
      .executeTakeFirst();
    if (!first) throw e;
    return toProjectRow(first);
  }
}

/**
 * The agent as it acts now: its live file-access settings, or the frozen ones of its publication (A7) when
 * `published` is set. A conversation it acts in must exist in its project.
 */
export async function loadAgentActor(platform: Platform, agentId: string, opts: ContextOptions & { published?: boolean } = {}): Promise<AgentActor> {
  const a = await platform.db.kysely.selectFrom('agents').selectAll().where('id', '=', agentId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist`);
  let access = { enabled: a.files_enabled === 1, write: a.write_scope as 'own' | 'project', read: a.read_scope as 'project' | 'own' };
  let instructions = a.instructions;
  if (opts.published && a.published_config) {
    const frozen = JSON.parse(a.published_config) as { access: typeof access; instructions: string };
    access = frozen.access;
    instructions = frozen.instructions;
  }
  const conversationId = opts.conversationId ?? null;
  if (conversationId) {
    const conv = await platform.db.kysely
      .selectFrom('conversations')
      .select('id')
      .where('id', '=', conversationId)
      .where('project_id', '=', a.project_id)
      .executeTakeFirst();
    if (!conv) throw new StoaError('not_found', `conversation "${conversationId}" does not exist in this project`);
  }
  return {
    kind: 'agent',
    agentId: a.id,
    name: a.name,
    ownerId: a.owner_id,
    access,
    instructions,
    conversationId,
    processId: opts.processId,
    nodeId: opts.nodeId,
  };
}

/** The principal of the local administrator (local CLI mode works as this user). */
export async function localAdminPrincipal(platform: Platform): Promise<Principal> {
  const admin = await platform.db.kysely.selectFrom('users').select(['id', 'name']).where('name', '=', 'admin').executeTakeFirstOrThrow();
  return { kind: 'user', userId: admin.id, name: admin.name, superuser: true };
}
