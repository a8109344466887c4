import { StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import { inTx, type Platform } from '../platform.js';
import type { Actor, UserActor } from '../actors.js';
import { toProjectRow, type ProjectRow } from './project-row.js';
import type { Principal } from './tokens.js';

const PROJECT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,99}$/u;

/**
 * Finds a project by name or ID.
 *
 * @example
 * await findProject(platform, 'default')
 */
export async function findProject(platform: Platform, nameOrId: string): Promise<ProjectRow> {
  const row = await platform.db.kysely
    .selectFrom('projects')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', nameOrId), eb('name', '=', nameOrId)]))
    .where('catalog', '=', 'projects')
    .where('deleting_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new StoaError('not_found', `project "${nameOrId}" does not exist`);
  return toProjectRow(row);
}

/** A project by ID, unless it does not exist or is being deleted (then it is gone for every door). */
export async function liveProjectById(platform: Platform, id: string): Promise<ProjectRow | undefined> {
  const row = await platform.db.kysely.selectFrom('projects').selectAll().where('id', '=', id).where('deleting_at', 'is', null).executeTakeFirst();
  return row ? toProjectRow(row) : undefined;
}

/** Creates a project; the creating user becomes its admin. */
export async function createProject(platform: Platform, actor: Actor, input: { name: string; quotaBytes?: number | null }): Promise<ProjectRow> {
  if (actor.kind !== 'user') throw new StoaError('forbidden', 'agents may not create projects');
  const name = input.name.normalize('NFC').trim();
  if (!PROJECT_NAME.test(name)) throw new StoaError('bad_request', 'project name must be 1–100 letters, digits, spaces, ".", "_" or "-"');
  const now = platform.clock().toISOString();
  return inTx(platform, async (trx) => {
    const exists = await trx.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirst();
    if (exists) throw new StoaError('already_exists', `project "${name}" already exists`);
    const org = await trx.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const id = newId('prj');
    await trx
      .insertInto('projects')
      .values({ id, org_id: org.id, name, quota_bytes: input.quotaBytes ?? null, created_at: now })
      .execute();
    await trx.insertInto('members').values({ project_id: id, user_id: actor.userId, role: 'admin', created_at: now }).execute();
    return { id, orgId: org.id, name, quotaBytes: input.quotaBytes ?? null, createdAt: now };
  });
}

/** Projects the actor belongs to (every project for the local administrator). */
export async function listProjects(platform: Platform, actor: UserActor): Promise<Array<ProjectRow & { role: string }>> {
  let q = platform.db.kysely
    .selectFrom('projects')
    .leftJoin('members', (j) => j.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', actor.userId))
    .selectAll('projects')
    .select('members.role')
    // Volumes beyond projects (R1) are rows of the same table; they are never listed as projects.
    .where('projects.catalog', '=', 'projects')
    .where('projects.deleting_at', 'is', null);
  if (!actor.superuser) q = q.where('members.user_id', '=', actor.userId);
  const rows = await q.orderBy('projects.created_at').orderBy('projects.name').execute();
  return rows.map((r: any) => ({ ...toProjectRow(r), role: r.role ?? 'admin' }));
}

/** The person a user principal stands for, as an actor outside any project. */
function userActorOf(principal: Extract<Principal, { kind: 'user' }>): UserActor {
  return { kind: 'user', userId: principal.userId, name: principal.name, role: null, superuser: principal.superuser };
}

/** Projects a token reaches: an agent's or a project-scoped token's one project, else the person's projects. */
export async function listProjectsFor(platform: Platform, principal: Principal): Promise<Array<ProjectRow & { role?: string }>> {
  const all = principal.kind === 'agent' ? [] : await listProjects(platform, userActorOf(principal));
  if (principal.kind === 'user' && !principal.projectId) return all;
  const project = await liveProjectById(platform, principal.projectId!);
  if (!project) return [];
  const role = all.find((p) => p.id === project.id)?.role;
  return [{ ...project, ...(role ? { role } : {}) }];
}

/** Creates a project for a person; agents and tokens confined to one project may not. */
export async function createProjectFor(
  platform: Platform,
  principal: Principal,
  input: { name: string; quotaBytes?: number | null },
): Promise<ProjectRow & { role: string }> {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'agents may not create projects');
  if (principal.projectId)
    throw new StoaError('forbidden', 'this token works only in its own project; use your own installation-wide token to create projects');
  return { ...(await createProject(platform, userActorOf(principal), input)), role: 'admin' };
}

/** The quota in force for a project: its own override or the server default. */
export function quotaOf(platform: Platform, project: ProjectRow): number {
  return project.quotaBytes ?? platform.config.limits.quotaBytes;
}
