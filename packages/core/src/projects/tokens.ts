import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import type { Ctx, Platform } from '../platform.js';
import { ADMIN_USER, hashToken } from './bootstrap.js';
import { assertCan } from '../policies/can.js';

/** Who a bearer token stands for, before a project is chosen. */
export type Principal =
  | { kind: 'user'; userId: string; name: string; superuser: boolean }
  | { kind: 'agent'; agentId: string; projectId: string; published?: boolean };

/**
 * Creates a token for a user (who must be a member of the project) or for an agent of the project. The token
 * is returned once; only its hash is stored.
 */
export async function createToken(ctx: Ctx, input: { user?: string; agent?: string; name?: string; published?: boolean }): Promise<{ token: string; id: string; user?: string; agent?: string; published?: boolean }> {
  if ((input.user ? 1 : 0) + (input.agent ? 1 : 0) !== 1) throw new StoaError('bad_request', 'give exactly one of --user NAME or --agent AGENT_ID');
  const db = ctx.platform.db.kysely;
  const now = ctx.platform.clock().toISOString();
  const token = newToken();
  const id = newId('tok');
  if (input.user) {
    assertCan(ctx.actor, 'member.manage', { kind: 'project' });
    const user = await db.selectFrom('users').innerJoin('members', 'members.user_id', 'users.id').select(['users.id', 'users.name'])
      .where('members.project_id', '=', ctx.project.id).where((eb) => eb.or([eb('users.name', '=', input.user!), eb('users.id', '=', input.user!)])).executeTakeFirst();
    if (!user) throw new StoaError('not_found', `user "${input.user}" is not a member of this project`);
    await db.insertInto('tokens').values({ id, token_hash: hashToken(token), user_id: user.id, agent_id: null, name: input.name ?? null, created_at: now, last_used_at: null, revoked_at: null }).execute();
    return { token, id, user: user.name };
  }
  if (input.published && !input.agent) throw new StoaError('bad_request', '--published applies to agent tokens only');
  const agent = await db.selectFrom('agents').select(['id', 'owner_id', 'published_at']).where('id', '=', input.agent!).where('project_id', '=', ctx.project.id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!agent) throw new StoaError('not_found', `agent "${input.agent}" does not exist in this project`);
  assertCan(ctx.actor, 'agent.manage', { kind: 'agent', ownerId: agent.owner_id });
  // A publication token acts with the settings frozen at publication (SPEC A7), so the agent must be published.
  if (input.published && !agent.published_at) throw new StoaError('bad_request', `agent "${agent.id}" is not published; publish it first`);
  await db.insertInto('tokens').values({ id, token_hash: hashToken(token), user_id: null, agent_id: agent.id, name: input.name ?? null, created_at: now, last_used_at: null, revoked_at: null, published: input.published ? 1 : 0 }).execute();
  return { token, id, agent: agent.id, ...(input.published ? { published: true } : {}) };
}

export async function revokeToken(ctx: Ctx, input: { id: string }): Promise<void> {
  const db = ctx.platform.db.kysely;
  const row = await db.selectFrom('tokens').select(['id', 'user_id']).where('id', '=', input.id).executeTakeFirst();
  const mine = row && ctx.actor.kind === 'user' && row.user_id === ctx.actor.userId;
  if (!row) throw new StoaError('not_found', 'token does not exist');
  if (!mine) assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  await db.updateTable('tokens').set({ revoked_at: ctx.platform.clock().toISOString() }).where('id', '=', input.id).execute();
}

/**
 * Resolves a bearer token. Unknown, revoked or malformed tokens give `unauthorized` (one message for all,
 * so a caller learns nothing about which tokens exist).
 */
export async function authenticate(platform: Platform, token: string | undefined): Promise<Principal> {
  if (!token) throw new StoaError('unauthorized', 'a valid token is required');
  const row = await platform.db.kysely
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .leftJoin('agents', 'agents.id', 'tokens.agent_id')
    .select(['tokens.id', 'tokens.user_id', 'tokens.agent_id', 'tokens.revoked_at', 'users.name as user_name', 'agents.project_id as agent_project', 'agents.deleted_at as agent_deleted', 'tokens.name as token_name', 'tokens.published'])
    .where('tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at || (row.agent_id && row.agent_deleted)) throw new StoaError('unauthorized', 'a valid token is required');
  if (row.agent_id) return { kind: 'agent', agentId: row.agent_id, projectId: row.agent_project!, ...(Number(row.published) === 1 ? { published: true } : {}) };
  // The bootstrap administrator (SPEC §7) administers every project of the installation.
  const superuser = row.user_name === ADMIN_USER;
  return { kind: 'user', userId: row.user_id!, name: row.user_name!, superuser };
}
