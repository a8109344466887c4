import type { FastifyRequest } from 'fastify';
import { authenticate, contextFor, type Ctx, type Platform, type Principal } from '@stoa/core';

/** The bearer token of a request: `Authorization: Bearer …` (or the web UI's `stoa_token` cookie). */
export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim();
  const cookie = req.headers.cookie;
  const m = cookie ? /(?:^|;\s*)stoa_token=([^;]+)/.exec(cookie) : null;
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export async function principalOf(platform: Platform, req: FastifyRequest): Promise<Principal> {
  return authenticate(platform, bearerToken(req));
}

/**
 * The context of one request. Agents may name the conversation they act in with `X-Stoa-Conversation`, and
 * their runtime with `X-Stoa-Process` / `X-Stoa-Node` (SPEC F6 attribution).
 */
export async function requestContext(platform: Platform, req: FastifyRequest, project: string | undefined): Promise<Ctx> {
  const principal = await principalOf(platform, req);
  const header = (n: string) => {
    const v = req.headers[n];
    return typeof v === 'string' && v ? v : undefined;
  };
  return contextFor(platform, principal, { project, conversationId: header('x-stoa-conversation') ?? null, processId: header('x-stoa-process'), nodeId: header('x-stoa-node') });
}
