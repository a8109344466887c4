import { StoaError } from '@stoa/contract';
import type { Actor } from '../actors.js';
import { contextFor } from '../context.js';
import type { ContextOptions } from '../context-agent.js';
import { newId } from '../ids.js';
import { recordAudit } from '../audit/audit.js';
import type { Ctx, Platform } from '../platform.js';
import type { Catalog, VolumeOwners } from '../projects/project-row.js';
import type { Principal } from '../projects/tokens.js';
import { noSuchVolume, volumeActor } from './volume-access.js';
import { isVolumeId, VOLUME_PREFIX } from './volume-row.js';

/** The name of a knowledge base or skill package in its project: the rule of project names. */
const VOLUME_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,99}$/u;

interface OpenVolumeInput {
  catalog: Catalog;
  /** projects, knowledges, skills: the project, by name or ID. */
  project?: string;
  /** xperts, user-xperts: the agent's ID (an agent may leave it out for itself). */
  agent?: string;
  /** knowledges, skills: the knowledge base or skill package, by name. */
  name?: string;
  /** false: only an existing volume — a read must never create one (a typo would make a knowledge base; issue 32). */
  create?: boolean;
}

/** A volume's scope as the caller may use it (R1): typed fields from the server, never built by clients. */
export interface VolumeScope {
  catalog: Catalog;
  volumeId: string;
  scopeId: string;
  tenantId: string;
  organizationId: string;
  userId: string | null;
  projectId: string | null;
  projectName: string | null;
  knowledgeId: string | null;
  skillId: string | null;
  rootId: null;
  xpertId: string | null;
  name: string;
  actor: { kind: 'user' | 'agent'; id: string };
  access: 'admin' | 'editor' | 'viewer' | 'write' | 'read' | 'none';
}

/** What the caller may do in a volume, as a scope names it (`none`: nothing, so it is neither listed nor opened). */
export function accessOf(a: Actor): VolumeScope['access'] {
  if (a.kind === 'user') return a.role ?? (a.superuser ? 'admin' : 'none');
  if (!a.access.enabled || a.access.volume === 'none') return 'none';
  return a.access.volume === 'ro' ? 'read' : 'write';
}

/** Whether the caller may bring a volume into being by using it: someone who may write it. */
function mayCreate(a: Actor): boolean {
  if (a.kind === 'user') return a.role === 'admin' || a.role === 'editor';
  return a.access.enabled && (a.access.volume === 'rw' || (a.access.volume === undefined && a.access.write === 'project'));
}

/** The scope of a context (a project's, or a volume's), as `volumes.open` answers it. */
async function scopeOfContext(ctx: Ctx): Promise<VolumeScope> {
  const p = ctx.project;
  const a = ctx.actor;
  const actor = a.kind === 'user' ? { kind: 'user' as const, id: a.userId } : { kind: 'agent' as const, id: a.agentId };
  const base = { volumeId: p.id, tenantId: p.orgId, organizationId: p.orgId, rootId: null, actor, access: accessOf(a) };
  const v = p.volume;
  if (!v) {
    return {
      ...base,
      catalog: 'projects',
      scopeId: p.id,
      userId: a.kind === 'user' ? a.userId : null,
      projectId: p.id,
      projectName: p.name,
      knowledgeId: null,
      skillId: null,
      xpertId: a.kind === 'agent' ? a.agentId : null,
      name: p.name,
    };
  }
  const parent = v.parentProjectId
    ? await ctx.platform.db.kysely.selectFrom('projects').select('name').where('id', '=', v.parentProjectId).executeTakeFirst()
    : undefined;
  const agent = v.xpertId ? await ctx.platform.db.kysely.selectFrom('agents').select('name').where('id', '=', v.xpertId).executeTakeFirst() : undefined;
  const name = volumeName(v, agent?.name);
  return {
    ...base,
    catalog: v.catalog,
    scopeId: v.scopeId,
    userId: v.userId,
    projectId: v.parentProjectId,
    projectName: parent?.name ?? null,
    knowledgeId: v.catalog === 'knowledges' ? p.id : null,
    skillId: v.catalog === 'skills' ? p.id : null,
    xpertId: v.xpertId,
    name,
  };
}

/** How a volume is named to the people who reach it: a knowledge base's or skill package's own name, else a description. */
export function volumeName(v: VolumeOwners, agentName: string | undefined): string {
  if (v.label) return v.label;
  if (v.catalog === 'users') return 'My files';
  return v.catalog === 'xperts' ? `Files of agent ${agentName ?? v.xpertId}` : `My files with agent ${agentName ?? v.xpertId}`;
}

/** The volume's typed owners and the core's internal key that keeps it unique (never shown as a scope). */
async function ownersFor(
  platform: Platform,
  principal: Principal,
  input: OpenVolumeInput,
  opts: ContextOptions,
): Promise<{ owners: VolumeOwners; key: string }> {
  switch (input.catalog) {
    case 'users': {
      if (principal.kind !== 'user') throw noSuchVolume();
      const owners: VolumeOwners = { catalog: 'users', scopeId: principal.userId, userId: principal.userId, xpertId: null, parentProjectId: null, label: null };
      return { owners, key: JSON.stringify(['users', principal.userId]) };
    }
    case 'xperts':
    case 'user-xperts': {
      const agentId = input.agent ?? (principal.kind === 'agent' ? principal.agentId : undefined);
      if (!agentId) throw new StoaError('bad_request', `catalog "${input.catalog}" needs the agent (its ID)`);
      const agent = await platform.db.kysely
        .selectFrom('agents')
        .select(['id', 'project_id', 'owner_id'])
        .where('id', '=', agentId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!agent) throw noSuchVolume();
      if (input.catalog === 'xperts') {
        const owners: VolumeOwners = { catalog: 'xperts', scopeId: agent.id, userId: null, xpertId: agent.id, parentProjectId: agent.project_id, label: null };
        return { owners, key: JSON.stringify(['xperts', agent.id]) };
      }
      // The person of a private agent's volume: the caller, or for the agent itself its owner — a field of its own.
      const userId = principal.kind === 'user' ? principal.userId : agent.owner_id;
      if (!userId) throw noSuchVolume();
      const owners: VolumeOwners = { catalog: 'user-xperts', scopeId: agent.id, userId, xpertId: agent.id, parentProjectId: agent.project_id, label: null };
      return { owners, key: JSON.stringify(['user-xperts', agent.id, userId]) };
    }
    case 'knowledges':
    case 'skills': {
      if (!input.project || !input.name) throw new StoaError('bad_request', `catalog "${input.catalog}" needs the project and the name`);
      const name = input.name.normalize('NFC').trim();
      if (!VOLUME_NAME.test(name)) throw new StoaError('bad_request', 'the name must be 1–100 letters, digits, spaces, ".", "_" or "-"');
      // Who may see the project at all is the project's rule: an outsider gets its not_found.
      const ctx = await contextFor(platform, principal, { ...opts, project: input.project });
      if (ctx.project.volume) throw noSuchVolume();
      const owners: VolumeOwners = { catalog: input.catalog, scopeId: '', userId: null, xpertId: null, parentProjectId: ctx.project.id, label: name };
      return { owners, key: JSON.stringify([input.catalog, ctx.project.id, name]) };
    }
    case 'projects':
      throw new StoaError('bad_request', 'a project is not a volume beyond projects');
  }
}

/**
 * A project holds at most STOA_MAX_VOLUMES_PER_PROJECT knowledge bases and skill packages together, so its editors
 * cannot fill the installation with volumes that each carry the default quota. Two creations racing past the
 * count may end one over the cap, never more per racer.
 */
async function assertRoomForVolume(platform: Platform, projectId: string): Promise<void> {
  const max = platform.config.limits.volumesPerProject;
  const { n } = await platform.db.kysely
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_project_id', '=', projectId)
    .where('catalog', 'in', ['knowledges', 'skills'])
    .where('deleting_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(n) >= max) throw new StoaError('too_large', `a project holds at most ${max} knowledge bases and skill packages; delete one first`, { limit: max });
}

/**
 * The scope of an existing volume beyond projects by its ID, for whoever reaches it (a link to it, a reload).
 * Anyone else, and a project's ID, get not_found.
 */
export async function volumeScopeById(platform: Platform, principal: Principal, volumeId: string): Promise<VolumeScope> {
  if (!isVolumeId(volumeId)) throw noSuchVolume();
  const ctx = await contextFor(platform, principal, { project: volumeId });
  if (accessOf(ctx.actor) === 'none') throw noSuchVolume();
  return scopeOfContext(ctx);
}

/**
 * Resolves the caller's scope in a volume (R1, R3): the project's, or a volume beyond projects, which is created on
 * first use by someone who may write it. The rules of who reaches which volume live in `volumeActor`; anyone
 * else gets not_found, the answer of a volume that does not exist.
 *
 * @example
 * await openVolume(platform, principal, { catalog: 'users' }) // { catalog: 'users', volumeId: 'vol_…', userId: 'usr_…', … }
 */
export async function openVolume(platform: Platform, principal: Principal, input: OpenVolumeInput, opts: ContextOptions = {}): Promise<VolumeScope> {
  if (input.catalog === 'projects') {
    const ctx = await contextFor(platform, principal, { ...opts, project: input.project });
    if (ctx.project.volume) throw new StoaError('not_found', `project "${input.project}" does not exist`);
    return scopeOfContext(ctx);
  }
  const { owners, key } = await ownersFor(platform, principal, input, opts);
  const find = () => platform.db.kysely.selectFrom('projects').select(['id', 'deleting_at']).where('volume_key', '=', key).executeTakeFirst();
  let row = await find();
  let createdId: string | null = null;
  if (!row) {
    if (input.create === false) throw noSuchVolume();
    const id = VOLUME_PREFIX + newId('x').slice(2);
    const actor = await volumeActor(platform, principal, { ...owners, scopeId: owners.scopeId || id }, opts);
    if (!mayCreate(actor)) throw noSuchVolume();
    const org = await platform.db.kysely.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    if (owners.parentProjectId && (owners.catalog === 'knowledges' || owners.catalog === 'skills')) await assertRoomForVolume(platform, owners.parentProjectId);
    await platform.db.kysely
      .insertInto('projects')
      .values({
        id,
        org_id: org.id,
        name: id,
        quota_bytes: null,
        created_at: platform.clock().toISOString(),
        catalog: owners.catalog,
        volume_key: key,
        scope_id: owners.scopeId || id,
        owner_user_id: owners.userId,
        owner_agent_id: owners.xpertId,
        parent_project_id: owners.parentProjectId,
        label: owners.label,
      })
      .onConflict((oc) => oc.column('volume_key').doNothing())
      .execute();
    row = await find();
    // Only the call that brought it into being records it (a racing twin inserts nothing).
    if (row?.id === id) createdId = id;
  }
  if (!row || row.deleting_at) throw noSuchVolume();
  const ctx = await contextFor(platform, principal, { ...opts, project: row.id });
  if (createdId) {
    // In the volume's own audit log, and in its project's when it has one (a knowledge base or skill package).
    const created = { action: 'volume.create', details: { catalog: owners.catalog, volumeId: createdId, name: owners.label } };
    await recordAudit(platform.db.kysely, ctx, created);
    if (owners.parentProjectId && (owners.catalog === 'knowledges' || owners.catalog === 'skills'))
      await recordAudit(platform.db.kysely, await contextFor(platform, principal, { ...opts, project: owners.parentProjectId }), created);
  }
  return scopeOfContext(ctx);
}
