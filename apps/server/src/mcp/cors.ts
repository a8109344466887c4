import type { FastifyInstance } from 'fastify';

/**
 * Browser-based MCP clients (MCP Inspector runs its OAuth flow in the page) read `/mcp`'s challenge and the
 * OAuth metadata from another origin. These answers carry no cookie-based authority — `/mcp` takes bearer tokens
 * of agents, the metadata is public — so any origin may read them; credentials (cookies) are never allowed.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
} as const;

const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Stoa-Conversation';

/**
 * Answers the CORS preflight of `path` for `methods`.
 *
 * @example
 * allowPreflight(app, '/mcp', 'POST');
 */
export function allowPreflight(app: FastifyInstance, path: string, methods: string): void {
  app.options(path, async (_req, reply) =>
    reply
      .code(204)
      .headers({
        ...CORS_HEADERS,
        'access-control-allow-methods': methods,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '600',
      })
      .send(),
  );
}
