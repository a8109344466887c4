import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import { inTx, type Platform } from '../platform.js';
import { throttled } from './auth-throttle.js';
import { issueWebSession } from './login.js';
import type { Principal } from './tokens.js';

/** How long a ceremony's challenge stays good: the time a person takes to touch their authenticator. */
const CEREMONY_SECONDS = 300;
/** Passkeys a person may hold (each one is a row listed on the account page). */
const MAX_PASSKEYS = 20;
const WRONG = 'this passkey was not accepted';
/** The WebAuthn library (a hundred modules with its ASN.1 and JOSE code), loaded by the first ceremony (issue 31). */
const webauthn = () => import('@simplewebauthn/server');
/** Ceremonies in progress at once (anyone may begin one): past this, new ones wait for old ones to expire. */
const MAX_CEREMONIES = 10_000;

/**
 * Where WebAuthn runs: the origin the browser shows and its host name as the relying party ID. Browsers refuse
 * an IP address as RP ID, so passkeys need the server under a name (`STOA_PUBLIC_URL`, or `localhost`).
 */
function relyingParty(origin: string | undefined): { origin: string; rpID: string } {
  if (!origin) throw new StoaError('bad_request', 'passkeys work through the web UI only');
  const host = new URL(origin).hostname;
  if (/^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('['))
    throw new StoaError('bad_request', 'passkeys need the server under a host name (set STOA_PUBLIC_URL), not an IP address');
  return { origin, rpID: host };
}

async function startCeremony(platform: Platform, challenge: string, purpose: 'register' | 'signin', userId: string | null): Promise<string> {
  const now = platform.clock();
  const id = newId('wac');
  const q = platform.db.kysely;
  // Expired ceremonies are dropped as new ones start, so abandoned ones never pile up.
  await q.deleteFrom('webauthn_ceremonies').where('expires_at', '<', now.toISOString()).execute();
  const live = await q
    .selectFrom('webauthn_ceremonies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  if (Number(live?.n ?? 0) >= MAX_CEREMONIES)
    throw new StoaError('rate_limited', 'too many passkey sign-ins are in progress; try again in a few minutes', { retryAfter: CEREMONY_SECONDS });
  await q
    .insertInto('webauthn_ceremonies')
    .values({
      id,
      challenge,
      user_id: userId,
      purpose,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CEREMONY_SECONDS * 1000).toISOString(),
    })
    .execute();
  return id;
}

/** Takes a ceremony once (deleted as it is read, so a challenge is never answered twice). */
async function takeCeremony(platform: Platform, id: string, purpose: 'register' | 'signin'): Promise<{ challenge: string; user_id: string | null } | null> {
  return inTx(platform, async (trx) => {
    const row = await trx.selectFrom('webauthn_ceremonies').select(['challenge', 'user_id', 'purpose', 'expires_at']).where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const gone = await trx.deleteFrom('webauthn_ceremonies').where('id', '=', id).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1 || row.purpose !== purpose || row.expires_at < platform.clock().toISOString()) return null;
    return row;
  });
}

function userOf(principal: Principal): Extract<Principal, { kind: 'user' }> {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'agents have no passkeys');
  return principal;
}

/** Starts adding a passkey to the signed-in person's account: the options for `navigator.credentials.create`. */
export async function passkeyRegistrationOptions(
  platform: Platform,
  principal: Principal,
  opts: { origin?: string },
): Promise<{ ceremony: string; options: unknown }> {
  const me = userOf(principal);
  const { rpID } = relyingParty(opts.origin);
  const existing = await platform.db.kysely.selectFrom('user_passkeys').select(['id', 'transports']).where('user_id', '=', me.userId).execute();
  if (existing.length >= MAX_PASSKEYS) throw new StoaError('bad_request', `you have ${MAX_PASSKEYS} passkeys already; remove one first`);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: 'Stoa',
    rpID,
    userName: me.name,
    userID: new TextEncoder().encode(me.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports ? (JSON.parse(p.transports) as string[]) : undefined })),
    // A discoverable credential: signing in then needs no name typed (and tells nobody which names exist).
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  return { ceremony: await startCeremony(platform, options.challenge, 'register', me.userId), options };
}

/** Finishes adding a passkey: verifies the authenticator's answer to the ceremony and keeps its public key. */
export async function addPasskey(
  platform: Platform,
  principal: Principal,
  input: { ceremony: string; response: unknown; name?: string },
  opts: { origin?: string },
): Promise<{ id: string }> {
  const me = userOf(principal);
  const rp = relyingParty(opts.origin);
  const ceremony = await takeCeremony(platform, input.ceremony, 'register');
  if (!ceremony || ceremony.user_id !== me.userId) throw new StoaError('bad_request', 'this passkey registration expired; start again');
  const result = await (
    await webauthn()
  )
    .verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    })
    .catch(() => ({ verified: false as const, registrationInfo: undefined }));
  if (!result.verified) throw new StoaError('bad_request', 'the authenticator’s answer could not be verified');
  const c = result.registrationInfo.credential;
  const now = platform.clock().toISOString();
  await platform.db.kysely
    .insertInto('user_passkeys')
    .values({
      id: c.id,
      user_id: me.userId,
      public_key: Buffer.from(c.publicKey).toString('base64url'),
      counter: c.counter,
      transports: c.transports ? JSON.stringify(c.transports) : null,
      name: input.name?.slice(0, 100) ?? null,
      created_at: now,
      last_used_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { id: c.id };
}

/** Starts signing in with a passkey: a challenge for any of this site's discoverable credentials (no name asked). */
export async function passkeySignInOptions(platform: Platform, opts: { origin?: string; client?: string }): Promise<{ ceremony: string; options: unknown }> {
  const { rpID } = relyingParty(opts.origin);
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
  return { ceremony: await startCeremony(platform, options.challenge, 'signin', null), options };
}

/**
 * Signs in with a passkey: the authenticator's signature over the ceremony's challenge, checked against the public
 * key registered for that credential, starts a web session. Any failure is the same `unauthorized` and counts
 * against the client address.
 */
export async function signInWithPasskey(
  platform: Platform,
  input: { ceremony: string; response: unknown },
  opts: { origin?: string; client?: string },
): Promise<{ token: string; user: string }> {
  const rp = relyingParty(opts.origin);
  return throttled(platform, opts.client, async () => {
    const ceremony = await takeCeremony(platform, input.ceremony, 'signin');
    const response = input.response as AuthenticationResponseJSON;
    const id = typeof response?.id === 'string' ? response.id : '';
    const q = platform.db.kysely;
    const key =
      ceremony && id
        ? await q
            .selectFrom('user_passkeys')
            .innerJoin('users', 'users.id', 'user_passkeys.user_id')
            .select([
              'user_passkeys.id',
              'user_passkeys.public_key',
              'user_passkeys.counter',
              'user_passkeys.transports',
              'user_passkeys.user_id',
              'users.name',
            ])
            .where('user_passkeys.id', '=', id)
            .executeTakeFirst()
        : undefined;
    if (!ceremony || !key) throw new StoaError('unauthorized', WRONG);
    const result = await (
      await webauthn()
    )
      .verifyAuthenticationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: key.id,
          publicKey: Buffer.from(key.public_key, 'base64url'),
          counter: Number(key.counter),
          transports: key.transports ? (JSON.parse(key.transports) as string[]) : undefined,
        },
        requireUserVerification: false,
      })
      .catch(() => ({ verified: false, authenticationInfo: { newCounter: 0 } }));
    if (!result.verified) throw new StoaError('unauthorized', WRONG);
    const now = platform.clock().toISOString();
    const token = await inTx(platform, async (trx) => {
      await trx.updateTable('user_passkeys').set({ counter: result.authenticationInfo.newCounter, last_used_at: now }).where('id', '=', key.id).execute();
      return issueWebSession(trx, platform, key.user_id, now);
    });
    return { token, user: key.name };
  });
}

/** The signed-in person's passkeys, as the account page lists them. */
export async function listPasskeys(
  platform: Platform,
  principal: Principal,
): Promise<Array<{ id: string; name: string | null; createdAt: string; lastUsedAt: string | null }>> {
  const me = userOf(principal);
  const rows = await platform.db.kysely
    .selectFrom('user_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', me.userId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

/** Removes one of the signed-in person's own passkeys. */
export async function removePasskey(platform: Platform, principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const me = userOf(principal);
  const r = await platform.db.kysely.deleteFrom('user_passkeys').where('id', '=', input.id).where('user_id', '=', me.userId).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new StoaError('not_found', 'no such passkey of yours');
  return { ok: true };
}
