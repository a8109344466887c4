import { StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import type { Role } from '../actors.js';

const USER_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._@-]{0,63}$/u;
const ROLES: Role[] = ['admin', 'editor', 'viewer'];

export interface Member { userId: string; name: string; role: Role; since: string }

/**
 * Adds a user to the project with a role, creating the user if it does not exist; an existing member's role
 * changes (SPEC §7 `members add`).
 */
export async function addMember(ctx: Ctx, input: { user: string; role: string }): Promise<Member> {
  assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  const name = input.user.normalize('NFC').trim();
  if (!USER_NAME.test(name)) throw new StoaError('bad_request', 'user name must be 1–64 letters, digits, ".", "_", "@" or "-"');
  if (!ROLES.includes(input.role as Role)) throw new StoaError('bad_request', `role must be one of ${ROLES.join(', ')}`);
  const now = ctx.platform.clock().toISOString();
  return inTx(ctx.platform, async (trx) => {
    let user = await trx.selectFrom('users').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
    if (!user) {
      user = { id: newId('usr'), name };
      await trx.insertInto('users').values({ id: user.id, name, display_name: null, created_at: now }).execute();
    }
    const existing = await trx.selectFrom('members').select('created_at').where('project_id', '=', ctx.project.id).where('user_id', '=', user.id).executeTakeFirst();
    if (existing) {
      await trx.updateTable('members').set({ role: input.role }).where('project_id', '=', ctx.project.id).where('user_id', '=', user.id).execute();
    } else {
      await trx.insertInto('members').values({ project_id: ctx.project.id, user_id: user.id, role: input.role, created_at: now }).execute();
    }
    return { userId: user.id, name: user.name, role: input.role as Role, since: existing?.created_at ?? now };
  });
}

export async function listMembers(ctx: Ctx): Promise<Member[]> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const rows = await ctx.platform.db.kysely
    .selectFrom('members').innerJoin('users', 'users.id', 'members.user_id')
    .select(['users.id', 'users.name', 'members.role', 'members.created_at'])
    .where('members.project_id', '=', ctx.project.id).orderBy('users.name').execute();
  return rows.map((r) => ({ userId: r.id, name: r.name, role: r.role as Role, since: r.created_at }));
}

export async function removeMember(ctx: Ctx, input: { user: string }): Promise<void> {
  assertCan(ctx.actor, 'member.manage', { kind: 'project' });
  const user = await ctx.platform.db.kysely.selectFrom('users').select('id').where((eb) => eb.or([eb('name', '=', input.user), eb('id', '=', input.user)])).executeTakeFirst();
  if (!user) throw new StoaError('not_found', `user "${input.user}" does not exist`);
  const r = await ctx.platform.db.kysely.deleteFrom('members').where('project_id', '=', ctx.project.id).where('user_id', '=', user.id).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw new StoaError('not_found', `"${input.user}" is not a member of this project`);
}
