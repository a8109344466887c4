import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import type { OAuthClientInformationFull, OAuthMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isStoaError, runGlobalOperation, type OAuthClientRecord, type Platform } from '@stoa/core';
import { allowPreflight, CORS_HEADERS } from './cors.js';

/** The scope a client may ask for: everything its agent may do at /mcp (the agent's own settings narrow it). */
export const OAUTH_SCOPES = ['mcp'];

/** The OAuth endpoints, below the issuer (the server's public origin). */
const ENDPOINTS = { authorize: '/oauth/authorize', token: '/oauth/token', register: '/oauth/register', revoke: '/oauth/revoke' } as const;

/**
 * Authorization server metadata (RFC 8414) of Stoa for its own `/mcp`: public clients only (PKCE S256, no client
 * secret), the authorization code and refresh token grants, revocation (RFC 7009) and registration (RFC 7591).
 */
function authorizationServerMetadata(origin: string): OAuthMetadata {
  return {
    issuer: origin,
    authorization_endpoint: origin + ENDPOINTS.authorize,
    token_endpoint: origin + ENDPOINTS.token,
    registration_endpoint: origin + ENDPOINTS.register,
    revocation_endpoint: origin + ENDPOINTS.revoke,
    scopes_supported: OAUTH_SCOPES,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    service_documentation: `${origin}/api/v1/openapi.json`,
  };
}

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
 * Mounts the OAuth 2.1 authorization server of `/mcp` (MCP authorization, 2025-06-18): its metadata and the
 * MCP SDK's registration, authorization, token and revocation handlers. The handlers are Express routers; they
 * get the raw request with its body unread (Fastify parses nothing on these routes) and answer it themselves.
 *
 * @example
 * await mountOAuth(app, platform, (req) => publicOrigin(platform, req));
 */
export async function mountOAuth(app: FastifyInstance, platform: Platform, originOf: (req: FastifyRequest) => string): Promise<void> {
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

  app.get('/.well-known/oauth-authorization-server', async (req, reply) =>
    reply
      .headers(CORS_HEADERS)
      .header('cache-control', 'public, max-age=3600')
      .send(authorizationServerMetadata(originOf(req))),
  );
  allowPreflight(app, '/.well-known/oauth-authorization-server', 'GET');
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const handOver = async (req: FastifyRequest, reply: FastifyReply) => {
      (req.raw as RequestWithOrigin)[ORIGIN] = originOf(req);
      reply.hijack();
      // The headers every other answer gets from the onSend hook, which a hijacked reply skips.
      reply.raw.setHeader('X-Content-Type-Options', 'nosniff');
      reply.raw.setHeader('X-Frame-Options', 'DENY');
      reply.raw.setHeader('Referrer-Policy', 'no-referrer');
      await new Promise<void>((resolve) => {
        reply.raw.on('finish', resolve).on('close', resolve);
        ex(req.raw as never, reply.raw as never, () => {
          if (!reply.raw.headersSent) reply.raw.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"invalid_request"}');
          resolve();
        });
      });
    };
    for (const path of Object.values(ENDPOINTS)) raw.route({ method: ['GET', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'], url: path, handler: handOver });
  });
}
