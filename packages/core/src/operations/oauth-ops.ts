import { oauthRoutes } from '@stoa/contract';
import { describeOAuthClient } from '../oauth/oauth-clients.js';
import { findOAuthClient, saveOAuthClient, type OAuthClientRecord } from '../oauth/oauth-clients.js';
import {
  approveOAuthGrant,
  exchangeOAuthCode,
  listOAuthGrants,
  oauthCodeChallenge,
  refreshOAuthToken,
  revokeOAuthCredential,
  revokeOAuthGrant,
} from '../oauth/oauth-grants.js';
import { changes, globalOperation, projectOperation, publicDoorOperation, reads } from './operation.js';
import type { Operation, OperationTraits, PublicDoorOperation } from './operation.js';

const r = oauthRoutes;

/**
 * The people's side of MCP authorization: the consent page's client, the consent, and the grants. Who may consent
 * for which agent is the rule of minting its tokens; who may revoke a grant, the rule of revoking them (the core).
 */
export const oauthOperations: Operation[] = [
  globalOperation(r.client, { policy: 'signed-in', mutates: false, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    describeOAuthClient(platform, principal, i.client, i.redirectUri),
  ),
  projectOperation(r.approve, changes('token.create', null, 'none'), (ctx, i) =>
    approveOAuthGrant(ctx, {
      agent: i.agent,
      clientId: i.clientId,
      redirectUri: i.redirectUri,
      codeChallenge: i.codeChallenge,
      resource: i.resource,
      scope: i.scope,
      state: i.state,
    }),
  ),
  projectOperation(r.listGrants, reads('project.read'), (ctx) => listOAuthGrants(ctx)),
  projectOperation(r.revokeGrant, changes('token.create', null, 'none'), async (ctx, i) => {
    await revokeOAuthGrant(ctx, { id: i.id });
    return { ok: true as const };
  }),
];

const publicRead: OperationTraits = { policy: 'public', mutates: false, audit: null, agent: 'none' };
const publicChange: OperationTraits = { policy: 'public', mutates: true, audit: null, agent: 'none' };

/**
 * The authorization server's side of MCP sign-in (decision 0018): what a client does without a token. The MCP
 * SDK's handlers at /authorize, /token, /register and /revoke speak the protocol and call these; the core keeps
 * clients, codes and tokens (hashed), binds codes to their client, redirect and PKCE challenge, and rotates
 * refresh tokens.
 */
export const oauthServerOperations: PublicDoorOperation[] = [
  publicDoorOperation('oauth.clients.find', 'Look up a registered OAuth client', publicRead, ({ platform }, i: { clientId: string }) =>
    findOAuthClient(platform, i.clientId),
  ),
  publicDoorOperation('oauth.clients.register', 'Register an OAuth client (dynamic client registration)', publicChange, ({ platform }, i: OAuthClientRecord) =>
    saveOAuthClient(platform, i),
  ),
  publicDoorOperation('oauth.codes.challenge', "An authorization code's PKCE challenge", publicRead, ({ platform }, i: { clientId: string; code: string }) =>
    oauthCodeChallenge(platform, i.clientId, i.code),
  ),
  publicDoorOperation(
    'oauth.codes.exchange',
    'Exchange an authorization code for tokens',
    publicChange,
    ({ platform }, i: { clientId: string; code: string; redirectUri?: string; resource?: string }) => exchangeOAuthCode(platform, i),
  ),
  publicDoorOperation(
    'oauth.tokens.refresh',
    'Exchange a refresh token for new tokens',
    publicChange,
    ({ platform }, i: { clientId: string; refreshToken: string; resource?: string }) => refreshOAuthToken(platform, i),
  ),
  publicDoorOperation('oauth.tokens.revoke', 'Revoke an access or refresh token', publicChange, ({ platform }, i: { clientId: string; token: string }) =>
    revokeOAuthCredential(platform, i),
  ),
];
