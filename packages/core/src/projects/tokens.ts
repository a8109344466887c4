import { hotQuery } from '../hot-query.js';
import { timingSafeEqual } from 'node:crypto';
import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import type { Ctx, Platform } from '../platform.js';
import { hashToken } from './bootstrap.js';
import { throttled } from './auth-throttle.js';
import { oauthAccessPrincipal } from '../oauth/oauth-grants.js';
import { mintDecision, tokenManageDecision, type TokenFacts } from '../policies/credentials.js';

/**
 * Who a bearer token stands for, before a project is chosen. `projectId` on a user principal confines the
 * token to that project; `superuser` comes from the token itself (the installation's own tokens), never
 * from the user's name.
 */
export type Principal =
  | { kind: 'user'; userId: string; name: string; superuser: boolean; projectId?: string }
  | { kind: 'agent'; agentId: string; projectId: string; published?: boolean };

/**
 * Whether a principal is the installation administrator: a person with one of the installation's own superuser
 * tokens, not confined to a project. The one check for installation-wide operations (doctor, project deletion).
 */
export function isInstallationAdminPrincipal(principal: Principal): principal is Extract<Principal, { kind: 'user' }> {
  return principal.kind === 'user' && principal.superuser && !principal.projectId;
}

/** A token as listed: never its secret nor its hash. */
export interface TokenInfo {
  id: string;
  name: string | null;
  user: string | null;
  agent: string | null;
  project: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * Creates a token inside the context's project, for the caller (no `user`, or the caller's own name), for a
 * member (installation administrator only) or for an agent of the project. The token works only in this
 * project. It is returned once; only its hash is stored.
 */
export async function createToken(
  ctx: Ctx,
  input: { user?: string; agent?: string; name?: string; published?: boolean },
): Promise<{ token: string; id: string; user?: string; agent?: string; published?: boolean }> {
  if (input.user && input.agent) throw new StoaError('bad_request', 'give at most one of --user NAME or --agent AGENT_ID');
  if (input.published && !input.agent) throw new StoaError('bad_request', '--published applies to agent tokens only');
  const db = ctx.platform.db.kysely;
  const now = ctx.platform.clock().toISOString();
  const token = newToken();
  const id = newId('tok');
  const createdBy = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  const row = {
    id,
    token_hash: hashToken(token),
    name: input.name ?? null,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
    project_id: ctx.project.id,
    superuser: 0,
    created_by: createdBy,
  };
  if (!input.agent) {
    if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'agents may not create tokens');
    const wanted = input.user ?? ctx.actor.userId;
    const self = wanted === ctx.actor.userId || wanted === ctx.actor.name;
    const refusal = mintDecision(ctx.actor, self ? { kind: 'self' } : { kind: 'user', userId: wanted });
    if (refusal) throw refusal;
    const user = await db
      .selectFrom('users')
      .innerJoin('members', 'members.user_id', 'users.id')
      .select(['users.id', 'users.name'])
      .where('members.project_id', '=', ctx.project.id)
      .where((eb) => eb.or([eb('users.name', '=', wanted), eb('users.id', '=', wanted)]))
      .executeTakeFirst();
    // A token minted here reaches only this project, so it is for one of its members.
    if (!user && self) throw new StoaError('forbidden', 'you are not a member of this project; a token minted here would reach nothing');
    if (!user) throw new StoaError('not_found', `user "${wanted}" is not a member of this project`);
    await db
      .insertInto('tokens')
      .values({ ...row, user_id: user.id, agent_id: null })
      .execute();
    return { token, id, user: user.name };
  }
  const agent = await db
    .selectFrom('agents')
    .select(['id', 'owner_id', 'published_at'])
    .where('id', '=', input.agent)
    .where('project_id', '=', ctx.project.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!agent) throw new StoaError('not_found', `agent "${input.agent}" does not exist in this project`);
  const refusal = mintDecision(ctx.actor, { kind: 'agent', ownerId: agent.owner_id });
  if (refusal) throw refusal;
  // A publication token acts with the settings frozen at publication (A7), so the agent must be published.
  if (input.published && !agent.published_at) throw new StoaError('bad_request', `agent "${agent.id}" is not published; publish it first`);
  await db
    .insertInto('tokens')
    .values({ ...row, user_id: null, agent_id: agent.id, published: input.published ? 1 : 0 })
    .execute();
  return { token, id, agent: agent.id, ...(input.published ? { published: true } : {}) };
}

/** The facts the policy needs about tokens, for one id or for the candidates of a project. */
function tokenFactsQuery(platform: Platform) {
  return platform.db.kysely
    .selectFrom('tokens')
    .leftJoin('agents', 'agents.id', 'tokens.agent_id')
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'tokens.id',
      'tokens.name',
      'tokens.user_id',
      'tokens.agent_id',
      'tokens.project_id',
      'tokens.created_at',
      'tokens.revoked_at',
      'agents.project_id as agent_project',
      'agents.owner_id as agent_owner',
      'users.name as user_name',
    ]);
}

function factsOf(r: {
  user_id: string | null;
  agent_id: string | null;
  project_id: string | null;
  agent_project: string | null;
  agent_owner: string | null;
}): TokenFacts {
  return { userId: r.user_id, agentId: r.agent_id, projectId: r.project_id, agentProjectId: r.agent_project, agentOwnerId: r.agent_owner };
}

/** Revokes a token the caller may manage (own tokens; a project admin: tokens of its project; installation admin: any). */
export async function revokeToken(ctx: Ctx, input: { id: string }): Promise<void> {
  const row = await tokenFactsQuery(ctx.platform).where('tokens.id', '=', input.id).executeTakeFirst();
  if (!row) throw new StoaError('not_found', 'token does not exist');
  const refusal = tokenManageDecision(ctx.actor, factsOf(row), ctx.project.id);
  if (refusal) throw refusal;
  if (row.revoked_at) return;
  await ctx.platform.db.kysely.updateTable('tokens').set({ revoked_at: ctx.platform.clock().toISOString() }).where('id', '=', input.id).execute();
}

/** Tokens the caller may manage as seen from the context's project: its own, and those of the project it may manage. */
export async function listTokens(ctx: Ctx, opts: { agent?: string } = {}): Promise<TokenInfo[]> {
  if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'agents may not manage tokens');
  const me = ctx.actor.userId;
  let q = tokenFactsQuery(ctx.platform).where((eb) =>
    eb.or([eb('tokens.user_id', '=', me), eb('tokens.project_id', '=', ctx.project.id), eb('agents.project_id', '=', ctx.project.id)]),
  );
  if (opts.agent !== undefined) q = q.where('tokens.agent_id', '=', opts.agent);
  const rows = await q.orderBy('tokens.created_at').execute();
  return rows
    .filter((r) => tokenManageDecision(ctx.actor, factsOf(r), ctx.project.id) === null)
    .map((r) => ({
      id: r.id,
      name: r.name,
      user: r.user_name,
      agent: r.agent_id,
      project: r.agent_project ?? r.project_id,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token row of a hash, with its person and agent: every request's first statement, built once (issue 30). */
const tokenByHash = hotQuery((db, a: { hash: string }) =>
  db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .leftJoin('agents', 'agents.id', 'tokens.agent_id')
    .select([
      'tokens.id',
      'tokens.token_hash',
      'tokens.user_id',
      'tokens.agent_id',
      'tokens.revoked_at',
      'tokens.project_id',
      'tokens.superuser',
      'users.name as user_name',
      'agents.project_id as agent_project',
      'agents.deleted_at as agent_deleted',
      'agents.suspended_at as agent_suspended',
      'tokens.expires_at',
      'tokens.published',
    ])
    .where('tokens.token_hash', '=', a.hash),
);

/**
 * Resolves a bearer token. Unknown, revoked or malformed tokens give `unauthorized` (one message for all,
 * so a caller learns nothing about which tokens exist); each such failure counts against the client address,
 * which gets `rate_limited` once it has used up its attempts (config `auth`).
 *
 * The lookup is by the SHA-256 of the token (a unique index), so its timing depends on the hash, not on how
 * much of a secret a guess got right; the found row is still compared in constant time.
 *
 * `resource` is the protected resource the door serves (only `/mcp` names one): OAuth access tokens, bound to a
 * resource when issued (RFC 8707), are accepted there and nowhere else.
 */
export async function authenticate(platform: Platform, token: string | undefined, opts: { client?: string; resource?: string } = {}): Promise<Principal> {
  if (!token) throw new StoaError('unauthorized', 'a valid token is required');
  return throttled(platform, opts.client, async () => {
    const hash = hashToken(token);
    const [row] = await tokenByHash(platform.db.kysely, { hash });
    // Not an API token: perhaps an OAuth access token, which works only at the resource it was issued for.
    if (!row) {
      const oauth = await oauthAccessPrincipal(platform, token, opts.resource);
      if (oauth) return oauth;
    }
    // A suspended agent's tokens (issue 26) say so with a stable code — also those revoked with its owner's
    // membership, which stay revoked once an admin reassigns the agent.
    if (row && sameHash(row.token_hash, hash) && row.agent_id && !row.agent_deleted && row.agent_suspended)
      throw new StoaError('agent_suspended', `agent "${row.agent_id}" is suspended: its owner left the project; a project admin may reassign or delete it`);
    if (!row || !sameHash(row.token_hash, hash) || row.revoked_at || (row.agent_id && row.agent_deleted))
      throw new StoaError('unauthorized', 'a valid token is required');
    // A login session ends at its expiry (STOA_SESSION_HOURS, issue 26), like a revoked token.
    if (row.expires_at && row.expires_at <= platform.clock().toISOString()) throw new StoaError('unauthorized', 'a valid token is required');
    if (row.agent_id)
      return { kind: 'agent', agentId: row.agent_id, projectId: row.agent_project!, ...(Number(row.published) === 1 ? { published: true } : {}) };
    return {
      kind: 'user',
      userId: row.user_id!,
      name: row.user_name!,
      superuser: Number(row.superuser) === 1,
      ...(row.project_id ? { projectId: row.project_id } : {}),
    };
  });
}
