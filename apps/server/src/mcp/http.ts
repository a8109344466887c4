import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoaError, StoaError } from '@stoa/contract';
import { runOperation, type Ctx, type Platform } from '@stoa/core';
import { requestContext } from '../http/auth.js';
import { sendProblem } from '../http/problem.js';
import { publicOrigin } from '../http/public-origin.js';
import { mountOAuth } from './oauth.js';
import { OAUTH_SCOPES } from './oauth-endpoints.js';
import { allowPreflight, CORS_HEADERS } from './cors.js';
import type { McpBackend, McpCallOutcome } from './mcp-server.js';

/**
 * The MCP SDK's server and transport (hundreds of protocol schemas built at import), loaded by the first call to
 * `/mcp`: a server nobody has asked over MCP yet never holds them (issue 31: idle memory).
 */
let mcpModules: Promise<[typeof import('./mcp-server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('./mcp-server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/** JSON-RPC error body for requests refused before MCP runs (no or wrong token). */
function rpcError(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .headers(CORS_HEADERS)
    .header('content-type', 'application/json')
    .send({ jsonrpc: '2.0', error: { code: -32001, message }, id: null });
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of `/mcp`, as the MCP authorization spec asks: the resource,
 * its authorization server (Stoa itself, issuer = the public origin, see oauth.ts) and how tokens are sent. Agent
 * API tokens (`stoa tokens create --agent`) are accepted as bearer tokens too.
 */
function protectedResourceMetadata(origin: string): Record<string, unknown> {
  return {
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    scopes_supported: OAUTH_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Stoa MCP',
    resource_documentation: `${origin}/api/v1/openapi.json`,
  };
}

/** The challenge on a refused /mcp request: bearer, and where the metadata says how to get a token. */
function challenge(platform: Platform, req: FastifyRequest, error?: 'invalid_token' | 'insufficient_scope'): string {
  const meta = `${publicOrigin(platform, req)}/.well-known/oauth-protected-resource`;
  return `Bearer realm="stoa", resource_metadata="${meta}"${error ? `, error="${error}"` : ''}`;
}

/**
 * The agent's context for one MCP request: bearer token of an agent, conversation from header or `?conversation=`,
 * and with `?volume=vol_…` a volume beyond its project (R1: its own files, a knowledge base…), by the core's rules.
 */
async function agentContext(platform: Platform, req: FastifyRequest): Promise<Ctx> {
  const q = req.query as Record<string, string | undefined>;
  if (q.conversation && !req.headers['x-stoa-conversation']) req.headers['x-stoa-conversation'] = q.conversation;
  const ctx = await requestContext(platform, req, typeof q.volume === 'string' && q.volume ? q.volume : undefined, `${publicOrigin(platform, req)}/mcp`);
  if (ctx.actor.kind !== 'agent') throw new StoaError('forbidden', '/mcp needs an agent token (stoa tokens create --agent AGENT_ID)');
  return ctx;
}

/**
 * Streamable HTTP MCP at `/mcp` in stateless mode: every POST carries an agent's bearer token and is served by a
 * fresh server and transport built from that request's context (R3: nothing is cached across requests).
 * GET (server-initiated streams) and DELETE (sessions) are not offered in stateless mode: 405.
 *
 * @example
 * serverExtensions.push(mountMcp);
 */
export async function mountMcp(app: FastifyInstance, platform: Platform): Promise<void> {
  app.post('/mcp', async (req, reply) => {
    let ctx: Ctx;
    try {
      ctx = await agentContext(platform, req);
    } catch (e) {
      const err = e as StoaError;
      if (err?.code === 'unauthorized' || err?.code === 'forbidden' || err?.code === 'not_found') {
        const hasToken = typeof req.headers.authorization === 'string' && req.headers.authorization.length > 0;
        reply.header('www-authenticate', challenge(platform, req, err.code === 'forbidden' ? 'insufficient_scope' : hasToken ? 'invalid_token' : undefined));
        return rpcError(reply, err.code === 'unauthorized' ? 401 : err.code === 'forbidden' ? 403 : 404, err.message);
      }
      return sendProblem(reply, req, e);
    }
    const [{ createStoaMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
    // Through the operation table like every door: the tool routes' operations, with their runner's steps.
    const server = createStoaMcpServer({
      project: async () => ctx.project.id,
      listTools: async () => (await runOperation(ctx, 'tools.list', { format: 'mcp' })) as Awaited<ReturnType<McpBackend['listTools']>>,
      callTool: async (name, args) => {
        try {
          return (await runOperation(ctx, 'tools.call', { name, arguments: args })) as McpCallOutcome;
        } catch (e) {
          if (isStoaError(e)) return { text: `Refused: ${e.message}`, refused: true, code: e.code };
          throw e;
        }
      },
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    for (const [name, value] of Object.entries(CORS_HEADERS)) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  allowPreflight(app, '/mcp', 'POST');
  const metadata = async (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .headers(CORS_HEADERS)
      .header('cache-control', 'public, max-age=3600')
      .send(protectedResourceMetadata(publicOrigin(platform, req)));
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    app.get(path, metadata);
    allowPreflight(app, path, 'GET');
  }
  await mountOAuth(app, platform, (req) => publicOrigin(platform, req));
  const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
