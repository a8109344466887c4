import express, { type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import {
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isStoaError, runGlobalOperation, type OAuthClientRecord, type Platform } from '@stoa/core';
import { ENDPOINTS, OAUTH_SCOPES } from './oauth-endpoints.js';

/*
 * The OAuth endpoints' handlers (the MCP SDK's, on Express), apart from oauth.ts so that they load with the first
 * OAuth request instead of with every server (issue 31: idle memory).
 */

/** Where the door puts the request's public origin for the provider, which sees only Express's request. */
const ORIGIN = Symbol('stoa.origin');
type RequestWithOrigin = { [ORIGIN]?: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Redirect URIs OAuth 2.1 allows (§2.3.1, §8.4.2): https, http on a loopback address (native apps), or a
 * private-use scheme (`cursor://…`). Plain http elsewhere would hand codes to anyone on the path.
 */
function acceptableRedirect(uri: string): boolean {
  const u = new URL(uri);
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname);
  return !u.hash;
}

/** The core's refusal as the OAuth error the SDK's handlers answer (RFC 6749 §5.2). */
function asOAuthError(e: unknown): Error {
  if (isStoaError(e)) {
    const oauth = (e.details as { oauth?: string } | undefined)?.oauth;
    if (oauth === 'invalid_target') return new InvalidTargetError(e.message);
    if (oauth === 'invalid_grant') return new InvalidGrantError(e.message);
    return new InvalidRequestError(e.message);
  }
  return new ServerError('Internal Server Error');
}

/** Runs one of the authorization server's public door operations (the table's `oauth.*`), in OAuth's error words. */
async function oauthCall<T>(platform: Platform, id: string, input: Record<string, unknown>): Promise<T> {
  try {
    return (await runGlobalOperation({ platform, principal: null }, id, input)) as T;
  } catch (e) {
    throw asOAuthError(e);
  }
}

/**
 * Stoa's side of the MCP SDK's authorization server: clients, codes and tokens live in the database (the core);
 * the person signs in and consents in the web UI at `/consent`, which the authorization request is sent on to.
 * Tokens are checked by the core's `authenticate` at `/mcp`, so `verifyAccessToken` is never used.
 */
function stoaProvider(platform: Platform): OAuthServerProvider {
  return {
    clientsStore: {
      getClient: (clientId) => oauthCall<OAuthClientInformationFull | undefined>(platform, 'oauth.clients.find', { clientId }),
      // Public clients only: a secret the SDK compares in clear would have to be stored in clear.
      registerClient: async (client) => {
        if (!client.redirect_uris.length || !client.redirect_uris.every(acceptableRedirect))
          throw new InvalidClientMetadataError('redirect_uris must be https, http on a loopback address, or a private-use scheme');
        const full = {
          ...client,
          client_secret: undefined,
          client_secret_expires_at: undefined,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        } as OAuthClientInformationFull;
        const record = JSON.parse(JSON.stringify(full)) as OAuthClientRecord;
        await oauthCall(platform, 'oauth.clients.register', { ...record });
        return record as OAuthClientInformationFull;
      },
    },
    authorize: async (client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) => {
      const ours = `${(res.req as RequestWithOrigin)[ORIGIN]}/mcp`;
      const resource = params.resource?.href ?? ours;
      if (resource !== ours) throw new InvalidTargetError(`this server issues tokens for ${ours} only`);
      const scopes = (params.scopes ?? []).filter((s) => s !== '');
      if (scopes.some((s) => !OAUTH_SCOPES.includes(s))) throw new InvalidRequestError(`unknown scope; this server offers: ${OAUTH_SCOPES.join(' ')}`);
      const q = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: params.redirectUri,
        code_challenge: params.codeChallenge,
        resource,
      });
      if (scopes.length) q.set('scope', scopes.join(' '));
      if (params.state !== undefined) q.set('state', params.state);
      res.redirect(302, `/consent?${q.toString()}`);
    },
    challengeForAuthorizationCode: (client, code) => oauthCall<string>(platform, 'oauth.codes.challenge', { clientId: client.client_id, code }),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      oauthCall<OAuthTokens>(platform, 'oauth.codes.exchange', { clientId: client.client_id, code, redirectUri, resource: resource?.href }),
    exchangeRefreshToken: (client, refreshToken, _scopes, resource) =>
      oauthCall<OAuthTokens>(platform, 'oauth.tokens.refresh', { clientId: client.client_id, refreshToken, resource: resource?.href }),
    verifyAccessToken: () => Promise.reject(new ServerError('access tokens are checked at /mcp by the core')),
    revokeToken: (client, request) => oauthCall<void>(platform, 'oauth.tokens.revoke', { clientId: client.client_id, token: request.token }),
  };
}

/**
 * The Express app answering the OAuth endpoints for `platform`; `withOrigin` hands it a request with its public
 * origin attached.
 *
 * @example
 * const { oauthApp, withOrigin } = await import('./oauth-handlers.js');
 */
export function oauthApp(platform: Platform): express.Express {
  const provider = stoaProvider(platform);
  const ex = express();
  ex.disable('x-powered-by');
  ex.set('trust proxy', platform.config.trustProxy ?? false);
  ex.use(ENDPOINTS.register, clientRegistrationHandler({ clientsStore: provider.clientsStore, clientSecretExpirySeconds: 0 }));
  ex.use(ENDPOINTS.authorize, authorizationHandler({ provider }));
  ex.use(ENDPOINTS.token, tokenHandler({ provider }));
  ex.use(ENDPOINTS.revoke, revocationHandler({ provider }));
  // A body the parsers refuse (malformed JSON, too large) gets an OAuth error, never Express's page with a stack.
  ex.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 400;
    res.status(status).json({ error: 'invalid_request', error_description: 'the request body is not valid' });
  });
  return ex;
}

/** Attaches the request's public origin for the provider, which sees only Express's request. */
export function withOrigin<T extends object>(req: T, origin: string): T {
  (req as RequestWithOrigin)[ORIGIN] = origin;
  return req;
}
