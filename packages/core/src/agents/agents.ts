import { StoaError } from '@stoa/contract';
import type { AgentAccess } from '../actors.js';
import { newId } from '../ids.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import type { AgentsTable } from '@stoa/db';
import type { Selectable } from 'kysely';
import { assertHonestName } from '../text-rules.js';

export interface AgentInfo {
  id: string;
  name: string;
  ownerId: string | null;
  instructions: string;
  files: 'on' | 'off';
  write: 'own' | 'project';
  read: 'project' | 'own';
  folder: string;
  published: { at: string; access: AgentAccess; instructions: string } | null;
  /** Its owner left the project (issue 26): it acts again once an admin reassigns it. */
  suspended: boolean;
  created: string;
  updated: string;
}

export function toAgentInfo(a: Omit<Selectable<AgentsTable>, 'suspended_at'> & { suspended_at?: string | null }): AgentInfo {
  const frozen = a.published_config ? (JSON.parse(a.published_config) as { access: AgentAccess; instructions: string }) : null;
  return {
    id: a.id,
    name: a.name,
    ownerId: a.owner_id,
    instructions: a.instructions,
    files: a.files_enabled === 1 ? 'on' : 'off',
    write: a.write_scope as 'own' | 'project',
    read: a.read_scope as 'project' | 'own',
    folder: `agents/${a.id}/`,
    published: frozen && a.published_at ? { at: a.published_at, ...frozen } : null,
    suspended: a.suspended_at !== null && a.suspended_at !== undefined,
    created: a.created_at,
    updated: a.updated_at,
  };
}

export interface AgentSettingsInput {
  name?: string;
  instructions?: string;
  files?: 'on' | 'off';
  write?: 'own' | 'project';
  read?: 'project' | 'own';
}

function validateSettings(input: AgentSettingsInput): void {
  if (input.name !== undefined && (input.name.trim() === '' || input.name.length > 100))
    throw new StoaError('bad_request', 'agent name must be 1–100 characters');
  if (input.name !== undefined) assertHonestName(input.name, 'agent name');
  if (input.files !== undefined && input.files !== 'on' && input.files !== 'off') throw new StoaError('bad_request', '--files must be on or off');
  if (input.write !== undefined && input.write !== 'own' && input.write !== 'project') throw new StoaError('bad_request', '--write must be own or project');
  if (input.read !== undefined && input.read !== 'project' && input.read !== 'own') throw new StoaError('bad_request', '--read must be project or own');
}

/**
 * Creates an agent with the defaults of A1 (file access off, writes own folder, reads whole project).
 *
 * @example
 * const a = await createAgent(ctx, { name: 'Researcher', files: 'on' }); // a.id like 'agt_a3B9kLm2'
 */
export async function createAgent(ctx: Ctx, input: AgentSettingsInput & { name: string }): Promise<AgentInfo> {
  assertCan(ctx.actor, 'agent.manage', { kind: 'project' });
  validateSettings(input);
  await assertNameFree(ctx, input.name.trim(), null);
  const now = ctx.platform.clock().toISOString();
  const row = {
    id: newId('agt'),
    project_id: ctx.project.id,
    owner_id: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
    name: input.name.trim(),
    instructions: input.instructions ?? '',
    files_enabled: input.files === 'on' ? 1 : 0,
    write_scope: input.write ?? 'own',
    read_scope: input.read ?? 'project',
    published_config: null,
    published_at: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await ctx.platform.db.kysely.insertInto('agents').values(row).execute();
  return toAgentInfo(row);
}

export async function getAgentRow(ctx: Ctx, id: string): Promise<Selectable<AgentsTable>> {
  const a = await ctx.platform.db.kysely
    .selectFrom('agents')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', ctx.project.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!a) throw new StoaError('not_found', `agent "${id}" does not exist`);
  return a;
}

export async function showAgent(ctx: Ctx, id: string): Promise<AgentInfo> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  return toAgentInfo(await getAgentRow(ctx, id));
}

export async function listAgents(ctx: Ctx): Promise<AgentInfo[]> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const rows = await ctx.platform.db.kysely
    .selectFrom('agents')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map(toAgentInfo);
}

/** Changes settings; renaming keeps the agent's folder (the folder is named by ID, §0). */
export async function updateAgent(ctx: Ctx, id: string, input: AgentSettingsInput): Promise<AgentInfo> {
  const a = await getAgentRow(ctx, id);
  assertCan(ctx.actor, 'agent.manage', { kind: 'agent', ownerId: a.owner_id });
  validateSettings(input);
  if (input.name !== undefined) await assertNameFree(ctx, input.name.trim(), id);
  const set = {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
    ...(input.files !== undefined ? { files_enabled: input.files === 'on' ? 1 : 0 } : {}),
    ...(input.write !== undefined ? { write_scope: input.write } : {}),
    ...(input.read !== undefined ? { read_scope: input.read } : {}),
    updated_at: ctx.platform.clock().toISOString(),
  };
  await ctx.platform.db.kysely.updateTable('agents').set(set).where('id', '=', id).execute();
  return toAgentInfo({ ...a, ...set });
}

/** Agent names are unique among the project's agents (A1), so a person can tell them apart in every list. */
async function assertNameFree(ctx: Ctx, name: string, except: string | null): Promise<void> {
  let q = ctx.platform.db.kysely
    .selectFrom('agents')
    .select('id')
    .where('project_id', '=', ctx.project.id)
    .where('name', '=', name)
    .where('deleted_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new StoaError('already_exists', `an agent named "${name}" already exists in this project`);
}

/** Copies an agent: a new ID and a new, empty folder (files are not copied); the copy takes the first free name. */
export async function copyAgent(ctx: Ctx, id: string): Promise<AgentInfo> {
  const a = await getAgentRow(ctx, id);
  const taken = new Set(
    (await ctx.platform.db.kysely.selectFrom('agents').select('name').where('project_id', '=', ctx.project.id).where('deleted_at', 'is', null).execute()).map(
      (r) => r.name,
    ),
  );
  let name = `${a.name} (copy)`;
  for (let i = 2; taken.has(name); i++) name = `${a.name} (copy ${i})`;
  return createAgent(ctx, {
    name,
    instructions: a.instructions,
    files: a.files_enabled === 1 ? 'on' : 'off',
    write: a.write_scope as 'own',
    read: a.read_scope as 'project',
  });
}

/** Deletes an agent; its folder and files stay (§0). Its tokens stop working. */
export async function deleteAgent(ctx: Ctx, id: string): Promise<void> {
  const a = await getAgentRow(ctx, id);
  assertCan(ctx.actor, 'agent.manage', { kind: 'agent', ownerId: a.owner_id });
  const now = ctx.platform.clock().toISOString();
  await inTx(ctx.platform, async (trx) => {
    await trx.updateTable('agents').set({ deleted_at: now }).where('id', '=', id).execute();
    await trx.updateTable('tokens').set({ revoked_at: now }).where('agent_id', '=', id).where('revoked_at', 'is', null).execute();
  });
}

/**
 * Gives an agent to another member of the project (project admins only); an agent suspended because its owner
 * left the project acts again (issue 26). Tokens the old owner minted for it were revoked at their removal.
 *
 * @example
 * await reassignAgent(ctx, 'agt_a3B9kLm2', { owner: 'bob' });
 */
export async function reassignAgent(ctx: Ctx, id: string, input: { owner: string }): Promise<AgentInfo> {
  assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  await getAgentRow(ctx, id);
  const owner = await ctx.platform.db.kysely
    .selectFrom('users')
    .innerJoin('members', 'members.user_id', 'users.id')
    .select('users.id')
    .where('members.project_id', '=', ctx.project.id)
    .where((eb) => eb.or([eb('users.name', '=', input.owner), eb('users.id', '=', input.owner)]))
    .executeTakeFirst();
  if (!owner) throw new StoaError('not_found', `"${input.owner}" is not a member of this project`);
  const now = ctx.platform.clock().toISOString();
  await ctx.platform.db.kysely.updateTable('agents').set({ owner_id: owner.id, suspended_at: null, updated_at: now }).where('id', '=', id).execute();
  return toAgentInfo(await getAgentRow(ctx, id));
}

/** Publishing freezes the access settings and instructions (A7); files are not copied. */
export async function publishAgent(ctx: Ctx, id: string): Promise<AgentInfo> {
  const a = await getAgentRow(ctx, id);
  assertCan(ctx.actor, 'agent.manage', { kind: 'agent', ownerId: a.owner_id });
  const frozen = { access: { enabled: a.files_enabled === 1, write: a.write_scope, read: a.read_scope }, instructions: a.instructions };
  const now = ctx.platform.clock().toISOString();
  await ctx.platform.db.kysely
    .updateTable('agents')
    .set({ published_config: JSON.stringify(frozen), published_at: now })
    .where('id', '=', id)
    .execute();
  return toAgentInfo({ ...a, published_config: JSON.stringify(frozen), published_at: now });
}
