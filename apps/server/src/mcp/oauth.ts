import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Platform } from '@stoa/core';
import { allowPreflight, CORS_HEADERS } from './cors.js';
import type * as OAuthHandlers from './oauth-handlers.js';

import { ENDPOINTS, OAUTH_SCOPES } from './oauth-endpoints.js';

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

/**
 * Mounts the OAuth 2.1 authorization server of `/mcp` (MCP authorization, 2025-06-18): its metadata and the
 * MCP SDK's registration, authorization, token and revocation handlers. The handlers are Express routers; they
 * get the raw request with its body unread (Fastify parses nothing on these routes) and answer it themselves.
 *
 * @example
 * await mountOAuth(app, platform, (req) => publicOrigin(platform, req));
 */
export async function mountOAuth(app: FastifyInstance, platform: Platform, originOf: (req: FastifyRequest) => string): Promise<void> {
  // The handlers (Express and the SDK's) are loaded by the first OAuth request (issue 31: idle memory).
  let handlers: Promise<{ ex: ReturnType<typeof OAuthHandlers.oauthApp>; withOrigin: typeof OAuthHandlers.withOrigin }> | undefined;
  const load = () => (handlers ??= import('./oauth-handlers.js').then((m) => ({ ex: m.oauthApp(platform), withOrigin: m.withOrigin })));

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
      const { ex, withOrigin } = await load();
      withOrigin(req.raw, originOf(req));
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
