import { StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import type { Role } from '../actors.js';
import { recordAudit } from '../audit/audit.js';

const USER_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._@-]{0,63}$/u;
export const ROLES: Role[] = ['admin', 'editor', 'viewer'];

/** A user name as stored (NFC, trimmed), or `bad_request`. */
export function userName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (!USER_NAME.test(name)) throw new StoaError('bad_request', 'user name must be 1–64 letters, digits, ".", "_", "@" or "-"');
  return name;
}

/** A role, or `bad_request`. */
export function roleOf(raw: string): Role {
  if (!ROLES.includes(raw as Role)) throw new StoaError('bad_request', `role must be one of ${ROLES.join(', ')}`);
  return raw as Role;
}

/** Gives a person a role in a project: adds the membership or changes its role. */
export async function grantRole(trx: Q, projectId: string, userId: string, role: Role, now: string): Promise<string> {
  const existing = await trx.selectFrom('members').select('created_at').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  if (existing) {
    await trx.updateTable('members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    return existing.created_at;
  }
  await trx.insertInto('members').values({ project_id: projectId, user_id: userId, role, created_at: now }).execute();
  return now;
}

export interface Member {
  userId: string;
  name: string;
  role: Role;
  since: string;
}

/**
 * Adds a user to the project with a role, creating the user if it does not exist; an existing member's role
 * changes (§7 `members add`). It never yields a credential: the new person signs in through an invitation
 * (or a token the installation administrator mints), so adding an existing person of other projects does not
 * let a project admin act as them (docs/security.md).
 */
export async function addMember(ctx: Ctx, input: { user: string; role: string }): Promise<Member> {
  assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  const name = userName(input.user);
  const role = roleOf(input.role);
  const now = ctx.platform.clock().toISOString();
  return inTx(ctx.platform, async (trx) => {
    let user = await trx.selectFrom('users').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
    if (!user) {
      user = { id: newId('usr'), name };
      await trx.insertInto('users').values({ id: user.id, name, display_name: null, created_at: now }).execute();
    }
    const since = await grantRole(trx, ctx.project.id, user.id, role, now);
    return { userId: user.id, name: user.name, role, since };
  });
}

export async function listMembers(ctx: Ctx): Promise<Member[]> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const rows = await ctx.platform.db.kysely
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['users.id', 'users.name', 'members.role', 'members.created_at'])
    .where('members.project_id', '=', ctx.project.id)
    .orderBy('users.name')
    .execute();
  return rows.map((r) => ({ userId: r.id, name: r.name, role: r.role as Role, since: r.created_at }));
}

/**
 * Removes a person from the project. Membership is the root of reach (issue 26), so in the same transaction:
 * the tokens confined to this project that are theirs or that they minted (for its agents) are revoked; the
 * agents they own here are suspended (their tokens answer agent_suspended) until an admin reassigns or deletes
 * them; their locks, and their agents' locks, in the project and its volumes are released. Their private-agent
 * volumes close by the rule of volumes/volume-access.ts (no membership, no reach).
 *
 * @example
 * await removeMember(ctx, { user: 'bob' });
 */
export async function removeMember(ctx: Ctx, input: { user: string }): Promise<void> {
  assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  const pid = ctx.project.id;
  const now = ctx.platform.clock().toISOString();
  await inTx(ctx.platform, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('name', '=', input.user), eb('id', '=', input.user)]))
      .executeTakeFirst();
    if (!user) throw new StoaError('not_found', `user "${input.user}" does not exist`);
    const r = await trx.deleteFrom('members').where('project_id', '=', pid).where('user_id', '=', user.id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new StoaError('not_found', `"${input.user}" is not a member of this project`);
    const projectAgents = trx.selectFrom('agents').select('id').where('project_id', '=', pid);
    await trx
      .updateTable('tokens')
      .set({ revoked_at: now })
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('user_id', '=', user.id), eb('project_id', '=', pid)]),
          eb.and([eb('created_by', '=', user.id), eb('agent_id', 'in', projectAgents)]),
        ]),
      )
      .execute();
    const owned = await trx
      .selectFrom('agents')
      .select('id')
      .where('project_id', '=', pid)
      .where('owner_id', '=', user.id)
      .where('deleted_at', 'is', null)
      .execute();
    if (owned.length > 0)
      await trx
        .updateTable('agents')
        .set({ suspended_at: now })
        .where(
          'id',
          'in',
          owned.map((a) => a.id),
        )
        .execute();
    await trx
      .deleteFrom('dav_locks')
      .where('principal', 'in', [`user:${user.id}`, ...owned.map((a) => `agent:${a.id}`)])
      .where((eb) => eb.or([eb('project_id', '=', pid), eb('project_id', 'in', eb.selectFrom('projects').select('id').where('parent_project_id', '=', pid))]))
      .execute();
    await recordAudit(trx, ctx, { action: 'member.remove', details: { user: user.id, agentsSuspended: owned.length } });
  });
}
