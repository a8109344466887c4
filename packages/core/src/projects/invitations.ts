import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import { inTx, type Ctx, type Platform, type Q } from '../platform.js';
import { inviteDecision, redeemDecision, type Redeemer } from '../policies/credentials.js';
import { hashToken } from './bootstrap.js';
import { assertNotThrottled, throttled } from './auth-throttle.js';
import { issueWebSession } from './login.js';
import { hashPassword, storePassword } from './passwords.js';
import { grantRole, roleOf, userName } from './members.js';
import type { Principal } from './tokens.js';
import type { Role } from '../actors.js';

const DEFAULT_TTL_HOURS = 7 * 24;
const MAX_TTL_HOURS = 90 * 24;

export interface Invitation {
  id: string;
  code: string;
  project: string;
  role: Role;
  user: string | null;
  expiresAt: string;
}

export interface AcceptedInvitation {
  project: { id: string; name: string };
  role: Role;
  user: string;
  /**
   * The new person's own installation-wide token (shown once); absent when a signed-in person accepted. With a
   * password, a web session token (the person signs in with the password from then on), else an API token.
   */
  token?: string;
}

/**
 * Creates an invitation into the context's project: a one-time code a person redeems for their own membership
 * (and, when they are new, their own token). This is how a project admin brings in a person without ever
 * holding that person's credential (docs/security.md). `user` addresses it to one name.
 */
export async function createInvitation(ctx: Ctx, input: { role: string; user?: string; ttlHours?: number }): Promise<Invitation> {
  const refusal = inviteDecision(ctx.actor);
  if (refusal) throw refusal;
  const role = roleOf(input.role);
  const user = input.user ? userName(input.user) : null;
  const ttl = input.ttlHours ?? DEFAULT_TTL_HOURS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_HOURS) throw new StoaError('bad_request', `ttlHours must be 1–${MAX_TTL_HOURS}`);
  const now = ctx.platform.clock();
  const code = 'inv_' + newToken().slice(5);
  const id = newId('inv');
  const expiresAt = new Date(now.getTime() + ttl * 3600_000).toISOString();
  await ctx.platform.db.kysely
    .insertInto('invitations')
    .values({
      id,
      code_hash: hashToken(code),
      project_id: ctx.project.id,
      role,
      user_name: user,
      created_by: ctx.actor.kind === 'user' ? ctx.actor.userId : '',
      created_at: now.toISOString(),
      expires_at: expiresAt,
      accepted_at: null,
      accepted_by: null,
    })
    .execute();
  return { id, code, project: ctx.project.name, role, user, expiresAt };
}

function redeemerOf(principal: Principal | null): Redeemer {
  if (!principal) return { kind: 'anonymous' };
  if (principal.kind === 'agent') return { kind: 'agent' };
  return { kind: 'user', userId: principal.userId, name: principal.name };
}

/**
 * Redeems an invitation once. Signed in (`principal`), the person joins the project themself. Without a token,
 * a new person named by the invitation (or by `user`) is created and gets their own token. A wrong, used or
 * expired code is `unauthorized` and counts against the client address like a wrong token.
 */
export async function acceptInvitation(
  platform: Platform,
  principal: Principal | null,
  input: { code: string; user?: string; password?: string },
  opts: {
    client?: string;
    /** Single sign-on: ties the new person to their identity at the provider, in the same transaction. */
    link?: (trx: Q, userId: string, now: string) => Promise<void>;
  } = {},
): Promise<AcceptedInvitation> {
  const redeemer = redeemerOf(principal);
  if (redeemer.kind === 'agent') throw new StoaError('forbidden', 'agents may not accept invitations');
  if (input.password !== undefined && redeemer.kind === 'user') throw new StoaError('bad_request', 'signed in, change your password on your account page');
  // Hashed before the transaction: argon2id is slow on purpose and must not hold the database (nor be spent on a
  // throttled address).
  assertNotThrottled(platform, opts.client);
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return throttled(platform, opts.client, () => redeem(platform, redeemer, input, passwordHash, opts.link));
}

async function redeem(
  platform: Platform,
  redeemer: Redeemer,
  input: { code: string; user?: string },
  passwordHash?: string,
  link?: (trx: Q, userId: string, now: string) => Promise<void>,
): Promise<AcceptedInvitation> {
  const now = platform.clock().toISOString();
  const hash = hashToken(input.code);
  return inTx(platform, async (trx) => {
    const inv = await trx
      .selectFrom('invitations')
      .innerJoin('projects', 'projects.id', 'invitations.project_id')
      .select([
        'invitations.id',
        'invitations.project_id',
        'invitations.role',
        'invitations.user_name',
        'invitations.expires_at',
        'invitations.accepted_at',
        'projects.name as project_name',
      ])
      .where('invitations.code_hash', '=', hash)
      .executeTakeFirst();
    if (!inv || inv.accepted_at || inv.expires_at < now) throw new StoaError('unauthorized', 'this invitation is invalid, used or expired; ask for a new one');
    const role = inv.role as Role;
    let userId: string;
    let name: string;
    let token: string | undefined;
    if (redeemer.kind === 'user') {
      const refusal = redeemDecision(redeemer, inv.user_name, null);
      if (refusal) throw refusal;
      userId = redeemer.userId;
      name = redeemer.name;
    } else {
      if (input.user && inv.user_name && userName(input.user) !== inv.user_name)
        throw new StoaError('forbidden', 'this invitation is addressed to someone else');
      const wanted = inv.user_name ?? (input.user ? userName(input.user) : null);
      if (!wanted) throw new StoaError('bad_request', 'user is required: the name you will sign in with');
      const existing = await trx.selectFrom('users').select('id').where('name', '=', wanted).executeTakeFirst();
      const claimed = existing ? await isClaimed(trx, existing.id, inv.project_id) : false;
      const refusal = redeemDecision(redeemer, inv.user_name, existing ? { claimed } : null);
      if (refusal) throw refusal;
      userId = existing?.id ?? newId('usr');
      name = wanted;
      if (!existing) await trx.insertInto('users').values({ id: userId, name, display_name: null, created_at: now }).execute();
      if (passwordHash !== undefined) {
        await storePassword(trx, userId, passwordHash, now);
        token = await issueWebSession(trx, platform, userId, now);
      }
      if (link) await link(trx, userId, now);
    }
    // A person who signs in with a password or through their provider needs no API token.
    if (redeemer.kind !== 'user' && !token && !link) {
      token = newToken();
      await trx
        .insertInto('tokens')
        .values({
          id: newId('tok'),
          token_hash: hashToken(token),
          user_id: userId,
          agent_id: null,
          name: 'invitation',
          created_at: now,
          last_used_at: null,
          revoked_at: null,
          superuser: 0,
          project_id: null,
          created_by: userId,
        })
        .execute();
    }
    // The update is conditional, so of two simultaneous redemptions exactly one wins.
    const won = await trx
      .updateTable('invitations')
      .set({ accepted_at: now, accepted_by: userId })
      .where('id', '=', inv.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(won.numUpdatedRows) !== 1) throw new StoaError('unauthorized', 'this invitation is invalid, used or expired; ask for a new one');
    await grantRole(trx, inv.project_id, userId, role, now);
    return { project: { id: inv.project_id, name: inv.project_name }, role, user: name, ...(token ? { token } : {}) };
  });
}

/** A person is claimed once they hold any token or belong to a project other than `projectId`. */
async function isClaimed(trx: Q, userId: string, projectId: string): Promise<boolean> {
  const tok = await trx.selectFrom('tokens').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (tok) return true;
  const other = await trx.selectFrom('members').select('project_id').where('user_id', '=', userId).where('project_id', '!=', projectId).executeTakeFirst();
  return !!other;
}
