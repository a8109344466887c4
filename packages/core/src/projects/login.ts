import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import { inTx, type Platform, type Q } from '../platform.js';
import { hashToken } from './bootstrap.js';
import { throttled } from './auth-throttle.js';

/** The name of the tokens login links and invitations give: sessions, which expire and which logout revokes. */
export const SESSION_NAME = 'web session';

/**
 * Ends a login session (issue 26): its token is revoked server-side, so a copy of the cookie no longer works.
 * Other tokens (minted on purpose for scripts) are not sessions and stay; unknown tokens are ignored.
 *
 * @example
 * await endSession(platform, tokenFromCookie);
 */
export async function endSession(platform: Platform, token: string | undefined): Promise<void> {
  if (!token) return;
  await platform.db.kysely
    .updateTable('tokens')
    .set({ revoked_at: platform.clock().toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('name', '=', SESSION_NAME), eb('expires_at', 'is not', null)]))
    .execute();
}

/**
 * A one-time login link for the web UI: `serve` prints it; opening it exchanges the code for a fresh session
 * token once. Codes live in the database so any of several servers can redeem them.
 */
export async function createLoginCode(platform: Platform, userId: string, opts: { ttlSeconds?: number; superuser?: boolean } = {}): Promise<string> {
  const code = newToken().slice(5);
  const now = platform.clock();
  const expires = new Date(now.getTime() + (opts.ttlSeconds ?? 900) * 1000).toISOString();
  await platform.db.kysely
    .insertInto('login_codes')
    .values({
      code_hash: hashToken(code),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expires,
      used_at: null,
      superuser: opts.superuser ? 1 : 0,
    })
    .execute();
  return code;
}

/**
 * Exchanges a login code for a session token of its person (installation-wide; a superuser token only when the
 * installation minted the code for its administrator). Wrong codes count against the client address.
 */
export async function redeemLoginCode(platform: Platform, code: string, opts: { client?: string } = {}): Promise<{ token: string; user: string }> {
  return throttled(platform, opts.client, () => redeem(platform, code));
}

async function redeem(platform: Platform, code: string): Promise<{ token: string; user: string }> {
  const now = platform.clock().toISOString();
  return inTx(platform, async (trx) => {
    const row = await trx
      .selectFrom('login_codes')
      .innerJoin('users', 'users.id', 'login_codes.user_id')
      .select(['login_codes.user_id', 'login_codes.expires_at', 'login_codes.used_at', 'login_codes.superuser', 'users.name'])
      .where('code_hash', '=', hashToken(code))
      .executeTakeFirst();
    if (!row || row.used_at || row.expires_at < now) throw new StoaError('unauthorized', 'this login link is invalid, used or expired; ask for a new one');
    // Conditional, so of two redemptions of one code at once (PostgreSQL runs them side by side) exactly one wins.
    const spent = await trx
      .updateTable('login_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hashToken(code))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw new StoaError('unauthorized', 'this login link is invalid, used or expired; ask for a new one');
    const token = await issueWebSession(trx, platform, row.user_id, now, { superuser: Number(row.superuser) === 1 });
    return { token, user: row.name };
  });
}

/**
 * Starts a web session for a person who proved who they are (a login link, a password, a passkey, single
 * sign-on): a fresh installation-wide session token, a superuser one only for the administrator's login link.
 * Returned once; only its hash is stored.
 */
export async function issueWebSession(trx: Q, platform: Platform, userId: string, now: string, opts: { superuser?: boolean } = {}): Promise<string> {
  const token = newToken();
  // The same session as a login link's: it ends after STOA_SESSION_HOURS and logout revokes it (issue 26).
  const expires = new Date(new Date(now).getTime() + platform.config.limits.sessionHours * 3600_000).toISOString();
  await trx
    .insertInto('tokens')
    .values({
      id: newId('tok'),
      token_hash: hashToken(token),
      user_id: userId,
      agent_id: null,
      name: SESSION_NAME,
      created_at: now,
      expires_at: expires,
      last_used_at: null,
      revoked_at: null,
      superuser: opts.superuser ? 1 : 0,
      created_by: userId,
    })
    .execute();
  return token;
}
