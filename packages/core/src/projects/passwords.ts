import { StoaError } from '@stoa/contract';
import { inTx, type Platform, type Q } from '../platform.js';
import { throttled } from './auth-throttle.js';
import { issueWebSession } from './login.js';
import type { Principal } from './tokens.js';

/** argon2 (a native addon), loaded by the first password hashed or checked: most starts never need it (issue 31). */
const argon2 = () => import('@node-rs/argon2');
const hash = async (password: string, opts: typeof ARGON2) => (await argon2()).hash(password, opts);
const verify = async (stored: string, password: string) => (await argon2()).verify(stored, password);

/** Shortest password accepted; long passphrases are welcome, up to a bound that keeps hashing cheap to refuse. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** The one answer to any failed password sign-in: it never says whether the name exists or has a password. */
const WRONG = 'wrong name or password';

/** argon2id with the OWASP-recommended floor (19 MiB, 2 passes, 1 lane); the parameters travel in the hash. */
const ARGON2 = { algorithm: 2 /* Algorithm.Argon2id, a const enum the build cannot import */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A hash of nothing anyone knows, verified when a name has no password so both cases cost the same. */
let decoy: Promise<string> | null = null;

function checkRules(password: string): void {
  if (password.length < PASSWORD_MIN) throw new StoaError('bad_request', `a password needs at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) throw new StoaError('bad_request', `a password has at most ${PASSWORD_MAX} characters`);
}

/** The argon2id hash of a new password that follows the rules (computed before any transaction: it is slow on purpose). */
export async function hashPassword(password: string): Promise<string> {
  checkRules(password);
  return hash(password, ARGON2);
}

/** Stores a person's password hash (from {@link hashPassword}), replacing any earlier one. */
export async function storePassword(trx: Q, userId: string, h: string, now: string): Promise<void> {
  await trx
    .insertInto('user_passwords')
    .values({ user_id: userId, hash: h, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash: h, updated_at: now }))
    .execute();
}

/** Whether the password is the person's; a person without one never matches (at the cost of a real check). */
async function passwordMatches(q: Q, userId: string | null, password: string): Promise<boolean> {
  const row = userId ? await q.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst() : undefined;
  if (!row) {
    decoy ??= hash('no password is stored for this name', ARGON2);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(row.hash, password).catch(() => false);
}

/**
 * Signs a person in with their name and password: a new web session token. A wrong name and a wrong password
 * get the same `unauthorized` answer and count against the client address like a wrong token (config `auth`).
 */
export async function signInWithPassword(
  platform: Platform,
  input: { user: string; password: string },
  opts: { client?: string } = {},
): Promise<{ token: string; user: string }> {
  return throttled(platform, opts.client, async () => {
    const q = platform.db.kysely;
    const user =
      input.password.length > PASSWORD_MAX ? undefined : await q.selectFrom('users').select(['id', 'name']).where('name', '=', input.user).executeTakeFirst();
    if (!(await passwordMatches(q, user?.id ?? null, input.password.slice(0, PASSWORD_MAX))) || !user) throw new StoaError('unauthorized', WRONG);
    const now = platform.clock().toISOString();
    const token = await inTx(platform, (trx) => issueWebSession(trx, platform, user.id, now));
    return { token, user: user.name };
  });
}

/**
 * Sets or changes the signed-in person's own password. Replacing one needs the current one (a stolen session
 * alone cannot lock its owner out); a wrong current password is `forbidden` and counts against the client address.
 */
export async function changePassword(
  platform: Platform,
  principal: Principal,
  input: { current?: string; password: string },
  opts: { client?: string } = {},
): Promise<{ ok: true }> {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'agents have no password');
  const h = await hashPassword(input.password);
  const q = platform.db.kysely;
  const existing = await q.selectFrom('user_passwords').select('user_id').where('user_id', '=', principal.userId).executeTakeFirst();
  // `forbidden`, not `unauthorized`: the session is fine, and a client must not take this for its end.
  if (existing)
    await throttled(
      platform,
      opts.client,
      async () => {
        if (!input.current || !(await passwordMatches(q, principal.userId, input.current.slice(0, PASSWORD_MAX))))
          throw new StoaError('forbidden', 'the current password is wrong');
      },
      ['forbidden'],
    );
  await storePassword(q, principal.userId, h, platform.clock().toISOString());
  return { ok: true };
}

/** How the signed-in person can sign in: with a password or not (the account page). */
export async function accountOf(platform: Platform, principal: Principal): Promise<{ user: string; password: boolean }> {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'agents have no account');
  const row = await platform.db.kysely.selectFrom('user_passwords').select('user_id').where('user_id', '=', principal.userId).executeTakeFirst();
  return { user: principal.name, password: !!row };
}
