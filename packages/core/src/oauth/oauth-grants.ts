import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import { inTx, type Ctx, type Platform, type Q } from '../platform.js';
import { hashToken } from '../projects/bootstrap.js';
import { mintDecision, tokenManageDecision, type TokenFacts } from '../policies/credentials.js';
import { checkedClient } from './oauth-clients.js';

/** How long each credential of a grant lives. Codes are spent within seconds; access tokens are refreshed. */
export const OAUTH_LIFETIMES = { codeSeconds: 600, accessSeconds: 3600, refreshSeconds: 30 * 24 * 3600 } as const;

/** The OAuth error (RFC 6749 §5.2) the token and revocation endpoints answer for a refusal of the core. */
export type OAuthErrorCode = 'invalid_grant' | 'invalid_target' | 'invalid_request';

function oauthRefusal(oauth: OAuthErrorCode, message: string): StoaError {
  return new StoaError('bad_request', message, { oauth });
}

/** What the token endpoint answers (RFC 6749 §5.1). */
export interface OAuthTokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

/** A grant as listed; never a credential. */
interface OAuthGrantInfo {
  id: string;
  client: { id: string; name: string | null };
  user: string | null;
  agent: string;
  resource: string;
  scope: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function checkedResource(resource: string): string {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new StoaError('bad_request', 'resource must be an absolute URL (RFC 8707)');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash)
    throw new StoaError('bad_request', 'resource must be an http(s) URL without a fragment');
  return url.href;
}

/**
 * The consent: the signed-in person lets a registered client act as one agent of this project at `resource`.
 * They must be allowed to mint that agent's tokens (its owner, or a project admin — the rule of `createToken`),
 * and the redirect URI must be one the client registered. Answers the redirect that carries a one-time code
 * (stored hashed) and the request's `state` back to the client.
 */
export async function approveOAuthGrant(
  ctx: Ctx,
  input: { agent: string; clientId: string; redirectUri: string; codeChallenge: string; resource: string; scope?: string; state?: string },
): Promise<{ id: string; redirectTo: string }> {
  if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'only a person can consent to an application');
  const { client, redirectUri } = await checkedClient(ctx.platform, input.clientId, input.redirectUri);
  const resource = checkedResource(input.resource);
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(input.codeChallenge)) throw new StoaError('bad_request', 'code_challenge is not a PKCE S256 challenge');
  const db = ctx.platform.db.kysely;
  const agent = await db
    .selectFrom('agents')
    .select(['id', 'owner_id'])
    .where('id', '=', input.agent)
    .where('project_id', '=', ctx.project.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!agent) throw new StoaError('not_found', `agent "${input.agent}" does not exist in this project`);
  const refusal = mintDecision(ctx.actor, { kind: 'agent', ownerId: agent.owner_id });
  if (refusal) throw refusal;
  // A grant lasts while its person is a member (checked on every use), so the installation administrator
  // consents only in projects they belong to: anywhere else the grant would be dead on arrival.
  const member = await db
    .selectFrom('members')
    .select('user_id')
    .where('project_id', '=', ctx.project.id)
    .where('user_id', '=', ctx.actor.userId)
    .executeTakeFirst();
  if (!member) throw new StoaError('forbidden', 'you are not a member of this project; an application you connect here would reach nothing');
  const now = ctx.platform.clock();
  const id = newId('oag');
  const code = newToken();
  await inTx(ctx.platform, async (trx) => {
    await trx
      .insertInto('oauth_grants')
      .values({
        id,
        client_id: client.client_id,
        user_id: member.user_id,
        project_id: ctx.project.id,
        agent_id: agent.id,
        resource,
        scope: input.scope ?? null,
        redirect_uri: redirectUri,
        code_challenge: input.codeChallenge,
        created_at: now.toISOString(),
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await insertCredential(trx, id, 'code', code, now, OAUTH_LIFETIMES.codeSeconds);
  });
  const to = new URL(redirectUri);
  to.searchParams.set('code', code);
  if (input.state !== undefined) to.searchParams.set('state', input.state);
  return { id, redirectTo: to.href };
}

async function insertCredential(trx: Q, grantId: string, kind: 'code' | 'access' | 'refresh', secret: string, now: Date, seconds: number): Promise<void> {
  await trx
    .insertInto('oauth_tokens')
    .values({
      token_hash: hashToken(secret),
      grant_id: grantId,
      kind,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + seconds * 1000).toISOString(),
      used_at: null,
    })
    .execute();
}

/** A credential with its grant, and whether the grant still stands: not revoked, its agent there, its person still a member. */
async function credentialOf(trx: Q, secret: string) {
  return trx
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .leftJoin('agents', (j) =>
      j.onRef('agents.id', '=', 'oauth_grants.agent_id').onRef('agents.project_id', '=', 'oauth_grants.project_id').on('agents.deleted_at', 'is', null),
    )
    .leftJoin('members', (j) => j.onRef('members.user_id', '=', 'oauth_grants.user_id').onRef('members.project_id', '=', 'oauth_grants.project_id'))
    .select([
      'oauth_tokens.kind',
      'oauth_tokens.expires_at',
      'oauth_tokens.used_at',
      'oauth_grants.id as grant_id',
      'oauth_grants.client_id',
      'oauth_grants.project_id',
      'oauth_grants.agent_id',
      'oauth_grants.resource',
      'oauth_grants.scope',
      'oauth_grants.redirect_uri',
      'oauth_grants.code_challenge',
      'oauth_grants.revoked_at',
      'agents.id as live_agent',
      'members.user_id as live_member',
    ])
    .where('oauth_tokens.token_hash', '=', hashToken(secret))
    .executeTakeFirst();
}

type Credential = NonNullable<Awaited<ReturnType<typeof credentialOf>>>;

function standing(c: Credential, now: string): boolean {
  return !c.revoked_at && c.live_agent !== null && c.live_member !== null && c.expires_at > now;
}

async function revokeGrantRow(trx: Q, grantId: string, now: string): Promise<void> {
  await trx.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
}

/** The PKCE challenge an authorization code was issued under, for the token endpoint to verify the verifier against. */
export async function oauthCodeChallenge(platform: Platform, clientId: string, code: string): Promise<string> {
  const c = await credentialOf(platform.db.kysely, code);
  if (!c || c.kind !== 'code' || c.client_id !== clientId) throw oauthRefusal('invalid_grant', 'the authorization code is not valid');
  return c.code_challenge;
}

/**
 * Spends an authorization code (once, within its lifetime, by the client it was issued to, for the same redirect
 * URI and resource) for an access and a refresh token. A code presented twice revokes its grant (RFC 6749 §4.1.2).
 */
export async function exchangeOAuthCode(
  platform: Platform,
  input: { clientId: string; code: string; redirectUri?: string; resource?: string },
): Promise<OAuthTokenSet> {
  const now = platform.clock();
  const result = await inTx(platform, async (trx): Promise<OAuthTokenSet | StoaError> => {
    const c = await credentialOf(trx, input.code);
    if (!c || c.kind !== 'code' || c.client_id !== input.clientId) throw oauthRefusal('invalid_grant', 'the authorization code is not valid');
    if (c.used_at) {
      await revokeGrantRow(trx, c.grant_id, now.toISOString());
      return oauthRefusal('invalid_grant', 'the authorization code was used already; its grant is revoked');
    }
    if (!standing(c, now.toISOString())) throw oauthRefusal('invalid_grant', 'the authorization code expired or its grant was revoked');
    if (input.redirectUri !== undefined && input.redirectUri !== c.redirect_uri)
      throw oauthRefusal('invalid_grant', 'redirect_uri differs from the authorization request');
    if (input.resource !== undefined && checkedResource(input.resource) !== c.resource)
      throw oauthRefusal('invalid_target', 'resource differs from the authorization request');
    await trx.updateTable('oauth_tokens').set({ used_at: now.toISOString() }).where('token_hash', '=', hashToken(input.code)).execute();
    return issueTokens(trx, c, now);
  });
  // The revocation of a replayed code's grant is committed; the refusal comes after.
  if (result instanceof StoaError) throw result;
  return result;
}

/**
 * Rotates a refresh token: the presented one is spent and a new access and refresh token are issued. A refresh
 * token presented again after it was spent means it leaked: the whole grant is revoked (OAuth 2.1 §4.3.1).
 */
export async function refreshOAuthToken(platform: Platform, input: { clientId: string; refreshToken: string; resource?: string }): Promise<OAuthTokenSet> {
  const now = platform.clock();
  const result = await inTx(platform, async (trx): Promise<OAuthTokenSet | StoaError> => {
    const c = await credentialOf(trx, input.refreshToken);
    if (!c || c.kind !== 'refresh' || c.client_id !== input.clientId) throw oauthRefusal('invalid_grant', 'the refresh token is not valid');
    if (c.used_at) {
      await revokeGrantRow(trx, c.grant_id, now.toISOString());
      return oauthRefusal('invalid_grant', 'the refresh token was used already; its grant is revoked');
    }
    if (!standing(c, now.toISOString())) throw oauthRefusal('invalid_grant', 'the refresh token expired or its grant was revoked');
    if (input.resource !== undefined && checkedResource(input.resource) !== c.resource) throw oauthRefusal('invalid_target', 'resource differs from the grant');
    const spent = await trx
      .updateTable('oauth_tokens')
      .set({ used_at: now.toISOString() })
      .where('token_hash', '=', hashToken(input.refreshToken))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    // Two refreshes racing with one token: only the first spends it.
    if (Number(spent.numUpdatedRows) !== 1) throw oauthRefusal('invalid_grant', 'the refresh token is not valid');
    return issueTokens(trx, c, now);
  });
  // The revocation of a replayed token's grant is committed; the refusal comes after.
  if (result instanceof StoaError) throw result;
  return result;
}

async function issueTokens(trx: Q, c: Credential, now: Date): Promise<OAuthTokenSet> {
  const access = newToken();
  const refresh = newToken();
  await insertCredential(trx, c.grant_id, 'access', access, now, OAUTH_LIFETIMES.accessSeconds);
  await insertCredential(trx, c.grant_id, 'refresh', refresh, now, OAUTH_LIFETIMES.refreshSeconds);
  await trx.updateTable('oauth_grants').set({ last_used_at: now.toISOString() }).where('id', '=', c.grant_id).execute();
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: OAUTH_LIFETIMES.accessSeconds,
    refresh_token: refresh,
    ...(c.scope ? { scope: c.scope } : {}),
  };
}

/**
 * Token revocation (RFC 7009) by the client the token was issued to: an access or refresh token ends its whole
 * grant, so a client signing out leaves nothing behind. Unknown tokens and other clients' tokens change nothing
 * (the endpoint answers 200 either way, as the RFC asks).
 */
export async function revokeOAuthCredential(platform: Platform, input: { clientId: string; token: string }): Promise<void> {
  const c = await credentialOf(platform.db.kysely, input.token);
  if (!c || c.kind === 'code' || c.client_id !== input.clientId) return;
  await revokeGrantRow(platform.db.kysely, c.grant_id, platform.clock().toISOString());
}

/**
 * The agent an OAuth access token acts as, or null when the token is no OAuth access token at all. A token that
 * is one but not for `resource` (its audience, RFC 8707), expired, or of a revoked grant gives `unauthorized`:
 * an access token for `/mcp` works at `/mcp` only.
 */
export async function oauthAccessPrincipal(
  platform: Platform,
  token: string,
  resource: string | undefined,
): Promise<{ kind: 'agent'; agentId: string; projectId: string } | null> {
  const c = await credentialOf(platform.db.kysely, token);
  if (!c || c.kind !== 'access') return null;
  if (!standing(c, platform.clock().toISOString()) || resource === undefined || c.resource !== resource)
    throw new StoaError('unauthorized', 'a valid token is required');
  return { kind: 'agent', agentId: c.agent_id, projectId: c.project_id };
}

function grantQuery(platform: Platform) {
  return platform.db.kysely
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .leftJoin('agents', 'agents.id', 'oauth_grants.agent_id')
    .leftJoin('users', 'users.id', 'oauth_grants.user_id')
    .select([
      'oauth_grants.id',
      'oauth_grants.client_id',
      'oauth_clients.client_name',
      'oauth_grants.user_id',
      'oauth_grants.project_id',
      'oauth_grants.agent_id',
      'oauth_grants.resource',
      'oauth_grants.scope',
      'oauth_grants.created_at',
      'oauth_grants.last_used_at',
      'oauth_grants.revoked_at',
      'agents.owner_id as agent_owner',
      'users.name as user_name',
    ]);
}

/** A grant is managed like an agent token its person minted: by that person, the agent's owner, a project admin. */
function factsOf(r: { user_id: string; agent_id: string; project_id: string; agent_owner: string | null }): TokenFacts {
  return { userId: r.user_id, agentId: r.agent_id, projectId: r.project_id, agentProjectId: r.project_id, agentOwnerId: r.agent_owner };
}

/** The grants of the project the caller may revoke, newest first. */
export async function listOAuthGrants(ctx: Ctx): Promise<OAuthGrantInfo[]> {
  if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'agents may not manage grants');
  const rows = await grantQuery(ctx.platform).where('oauth_grants.project_id', '=', ctx.project.id).orderBy('oauth_grants.created_at', 'desc').execute();
  return rows
    .filter((r) => tokenManageDecision(ctx.actor, factsOf(r), ctx.project.id) === null)
    .map((r) => ({
      id: r.id,
      client: { id: r.client_id, name: r.client_name },
      user: r.user_name,
      agent: r.agent_id,
      resource: r.resource,
      scope: r.scope,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      revokedAt: r.revoked_at,
    }));
}

/** Revokes a grant: every access and refresh token of it stops working at once. */
export async function revokeOAuthGrant(ctx: Ctx, input: { id: string }): Promise<void> {
  const row = await grantQuery(ctx.platform).where('oauth_grants.id', '=', input.id).where('oauth_grants.project_id', '=', ctx.project.id).executeTakeFirst();
  if (!row) throw new StoaError('not_found', 'grant does not exist');
  const refusal = tokenManageDecision(ctx.actor, factsOf(row), ctx.project.id);
  if (refusal) throw refusal;
  await revokeGrantRow(ctx.platform.db.kysely, input.id, ctx.platform.clock().toISOString());
}

/**
 * Deletes credentials past their lifetime, spent or not: nothing can use them any more (one presented later is
 * refused as unknown). Grants stay, revoked or not, for the list. Part of the housekeeping sweep.
 */
export async function sweepOAuthCredentials(platform: Platform): Promise<number> {
  const r = await platform.db.kysely.deleteFrom('oauth_tokens').where('expires_at', '<', platform.clock().toISOString()).executeTakeFirst();
  return Number(r.numDeletedRows);
}
