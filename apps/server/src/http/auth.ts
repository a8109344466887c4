import type { FastifyRequest } from 'fastify';
import { authenticate, contextFor, type Ctx, type DoorCall, type Platform, type Principal } from '@stoa/core';
import { publicOrigin } from './public-origin.js';

/** The web UI's session cookie (set by `POST /api/v1/auth/login`). */
export const SESSION_COOKIE = 'stoa_token';

/** The bearer token of a request: `Authorization: Bearer …` (or the web UI's session cookie). */
export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim();
  const cookie = req.headers.cookie;
  const m = cookie ? new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(cookie) : null;
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

/**
 * Who a token stands for; wrong tokens count against the client's address (the core throttles it, docs/security.md).
 * Every door authenticates through here, so no door can skip the throttle.
 */
export function principalFromToken(platform: Platform, req: FastifyRequest, token: string | undefined, resource?: string): Promise<Principal> {
  return authenticate(platform, token, { client: req.ip, resource });
}

async function principalOf(platform: Platform, req: FastifyRequest, resource?: string): Promise<Principal> {
  return principalFromToken(platform, req, bearerToken(req), resource);
}

/**
 * Who calls and what the request carries for the context. Agents may name the conversation they act in with
 * `X-Stoa-Conversation`, and their runtime with `X-Stoa-Process` / `X-Stoa-Node` (F6 attribution).
 */
export async function requestCall(platform: Platform, req: FastifyRequest, resource?: string): Promise<DoorCall> {
  const principal = await principalOf(platform, req, resource);
  const header = (n: string) => {
    const v = req.headers[n];
    return typeof v === 'string' && v ? v : undefined;
  };
  return {
    platform,
    principal,
    client: req.ip,
    origin: publicOrigin(platform, req),
    context: { conversationId: header('x-stoa-conversation') ?? null, processId: header('x-stoa-process'), nodeId: header('x-stoa-node') },
  };
}

/**
 * The context of one request in a project. `resource` names the protected resource the door serves (`/mcp`), where
 * OAuth access tokens issued for it are accepted besides API tokens.
 */
export async function requestContext(platform: Platform, req: FastifyRequest, project: string | undefined, resource?: string): Promise<Ctx> {
  const call = await requestCall(platform, req, resource);
  return contextFor(platform, call.principal, { ...call.context, project });
}
