import type * as OidcLib from 'openid-client';

/**
 * The OpenID client library, loaded the first time a sign-on needs it: a server without single sign-on, and
 * every command that signs nobody in, never load it (issue 31: start-up and idle memory).
 */
const oidcLib = (): Promise<typeof OidcLib> => import('openid-client');
import { StoaError } from '@stoa/contract';
import type { OidcConfig } from '../config.js';
import { inTx, type Platform, type Q } from '../platform.js';
import { throttled } from './auth-throttle.js';
import { acceptInvitation } from './invitations.js';
import { createLoginCode } from './login.js';
import { userName } from './members.js';
import { newId } from '../ids.js';
import { hashToken } from './bootstrap.js';

/** How long a person may take at the provider before the sign-in must start again. */
const SIGN_IN_SECONDS = 600;
/** Sign-ins in progress at once (anyone may begin one): past this, new ones wait for old ones to expire. */
const MAX_SIGN_INS = 10_000;
const REFUSED = 'single sign-on did not sign you in';

/** The provider's discovered configuration, once per platform and provider settings (a failed discovery is tried again). */
const discovered = new WeakMap<Platform, { key: string; config: Promise<OidcLib.Configuration> }>();

function settingsOf(platform: Platform): OidcConfig {
  const c = platform.config.oidc;
  if (!c) throw new StoaError('not_found', 'single sign-on is not configured');
  return c;
}

/** Plain http only for a provider on this machine (a development or test provider), never across a network. */
function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function providerOf(platform: Platform): Promise<OidcLib.Configuration> {
  const c = settingsOf(platform);
  const known = discovered.get(platform);
  const key = `${c.issuer}\n${c.clientId}\n${c.clientSecret}`;
  if (known && known.key === key) return known.config;
  const issuer = new URL(c.issuer);
  const config = oidcLib()
    .then((oidc) =>
      oidc.discovery(
        issuer,
        c.clientId,
        c.clientSecret,
        undefined,
        issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      ),
    )
    .catch((e: unknown) => {
      discovered.delete(platform);
      throw new StoaError('unavailable', `the single sign-on provider could not be reached (${(e as Error).message})`);
    });
  discovered.set(platform, { key, config });
  return config;
}

/** Where the provider sends the browser back: this server's own callback under its public origin. */
function callbackOf(origin: string): string {
  return `${origin}/api/v1/auth/oidc/callback`;
}

/** The ways in the sign-in page offers besides name and password and passkeys: the SSO button, when configured. */
export function signInMethods(platform: Platform): { sso: { name: string } | null } {
  const c = platform.config.oidc;
  return { sso: c ? { name: c.name } : null };
}

/**
 * Begins signing in through the provider: remembers state, nonce and PKCE verifier (and the invitation the person
 * came with) and answers where to send the browser.
 */
export async function beginOidcSignIn(platform: Platform, input: { invite?: string }, opts: { origin?: string }): Promise<{ location: string }> {
  if (!opts.origin) throw new StoaError('bad_request', 'single sign-on works through the web UI only');
  const config = await providerOf(platform);
  const oidc = await oidcLib();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const now = platform.clock();
  const q = platform.db.kysely;
  await q.deleteFrom('oidc_sign_ins').where('expires_at', '<', now.toISOString()).execute();
  const live = await q
    .selectFrom('oidc_sign_ins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  if (Number(live?.n ?? 0) >= MAX_SIGN_INS)
    throw new StoaError('rate_limited', 'too many single sign-ons are in progress; try again in a few minutes', { retryAfter: SIGN_IN_SECONDS });
  await q
    .insertInto('oidc_sign_ins')
    .values({
      state,
      nonce,
      verifier,
      invite: input.invite ?? null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SIGN_IN_SECONDS * 1000).toISOString(),
    })
    .execute();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackOf(opts.origin),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { location: url.href };
}

/** Takes a sign-in in progress once (deleted as it is read). */
async function takeSignIn(platform: Platform, state: string): Promise<{ nonce: string; verifier: string; invite: string | null } | null> {
  return inTx(platform, async (trx) => {
    const row = await trx.selectFrom('oidc_sign_ins').select(['nonce', 'verifier', 'invite', 'expires_at']).where('state', '=', state).executeTakeFirst();
    if (!row) return null;
    const gone = await trx.deleteFrom('oidc_sign_ins').where('state', '=', state).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1 || row.expires_at < platform.clock().toISOString()) return null;
    return row;
  });
}

function linker(issuer: string, subject: string, email: string | null) {
  return async (trx: Q, userId: string, now: string) => {
    await trx.insertInto('oidc_identities').values({ issuer, subject, user_id: userId, email, created_at: now }).execute();
  };
}

/**
 * Finishes signing in when the provider sends the browser back: checks its answer (state, PKCE, nonce, the ID
 * token's signature and audience — openid-client), finds the person of that identity, or makes one from the
 * invitation the sign-in began with, or from a verified email address in an allowed domain. Answers a one-time
 * login link for the web UI, which turns it into a session as it does the links `stoa serve` prints (and returns
 * to the MCP consent page that sent the person to sign in). Every refusal is the same `unauthorized`, counted
 * against the client address.
 */
export async function finishOidcSignIn(
  platform: Platform,
  input: { query: Record<string, string> },
  opts: { origin?: string; client?: string },
): Promise<{ location: string }> {
  const settings = settingsOf(platform);
  if (!opts.origin) throw new StoaError('bad_request', 'single sign-on works through the web UI only');
  const origin = opts.origin;
  return throttled(platform, opts.client, async () => {
    const config = await providerOf(platform);
    const pending = input.query.state ? await takeSignIn(platform, input.query.state) : null;
    if (!pending) throw new StoaError('unauthorized', REFUSED);
    const current = new URL(callbackOf(origin));
    for (const [k, v] of Object.entries(input.query)) current.searchParams.set(k, v);
    const tokens = await (
      await oidcLib()
    )
      .authorizationCodeGrant(config, current, { pkceCodeVerifier: pending.verifier, expectedState: input.query.state, expectedNonce: pending.nonce })
      .catch(() => null);
    const claims = tokens?.claims();
    if (!claims?.sub) throw new StoaError('unauthorized', REFUSED);
    const issuer = claims.iss;
    const subject = claims.sub;
    const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email.toLowerCase() : null;
    const q = platform.db.kysely;
    const linked = await q
      .selectFrom('oidc_identities')
      .innerJoin('users', 'users.id', 'oidc_identities.user_id')
      .select(['users.id', 'users.name'])
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    let userId: string;
    if (linked) {
      userId = linked.id;
      // Already a person here who came with another invitation: they join that project too.
      if (pending.invite)
        await acceptInvitation(platform, { kind: 'user', userId: linked.id, name: linked.name, superuser: false }, { code: pending.invite }).catch(
          () => undefined,
        );
    } else if (pending.invite) {
      // The invitation's name, when it gives one; else the person's address (or name) at the provider.
      const named = await q.selectFrom('invitations').select('user_name').where('code_hash', '=', hashToken(pending.invite)).executeTakeFirst();
      const suggested = email ?? (typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined);
      const joined = await acceptInvitation(
        platform,
        null,
        { code: pending.invite, user: named?.user_name ? undefined : suggested ? safeName(suggested) : undefined },
        { link: linker(issuer, subject, email) },
      );
      userId = (await q.selectFrom('users').select('id').where('name', '=', joined.user).executeTakeFirstOrThrow()).id;
    } else if (email && settings.allowedDomains.includes(email.split('@')[1] ?? '')) {
      userId = await inTx(platform, async (trx) => {
        const name = userName(email);
        // A name already taken is someone else's account: an address alone never takes it over.
        if (await trx.selectFrom('users').select('id').where('name', '=', name).executeTakeFirst()) throw new StoaError('unauthorized', REFUSED);
        const id = newId('usr');
        const now = platform.clock().toISOString();
        await trx.insertInto('users').values({ id, name, display_name: null, created_at: now }).execute();
        await linker(issuer, subject, email)(trx, id, now);
        return id;
      });
    } else throw new StoaError('unauthorized', REFUSED);
    const code = await createLoginCode(platform, userId, { ttlSeconds: 120 });
    return { location: `/login?code=${encodeURIComponent(code)}` };
  });
}

/** A provider's name or address as a Stoa user name (letters, digits, ".", "_", "@", "-"; at most 64). */
function safeName(raw: string): string | undefined {
  const cleaned = raw
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._@-]/gu, '-')
    .slice(0, 64);
  return cleaned || undefined;
}
