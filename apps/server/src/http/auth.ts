import type { FastifyRequest } from 'fastify';
import { authenticate, contextFor, type Ctx, type DoorCall, type Platform, type Principal } from '@stoa/core';

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
 * Who calls and what the request carries for the context. Agents may name the conversation they act in with
 * `X-Stoa-Conversation`, and their runtime with `X-Stoa-Process` / `X-Stoa-Node` (SPEC F6 attribution).
 */
export async function requestCall(platform: Platform, req: FastifyRequest): Promise<DoorCall> {
  const principal = await principalOf(platform, req);
  const header = (n: string) => {
    const v = req.headers[n];
    return typeof v === 'string' && v ? v : undefined;
  };
  return { platform, principal, context: { conversationId: header('x-stoa-conversation') ?? null, processId: header('x-stoa-process'), nodeId: header('x-stoa-node') } };
}

/** The context of one request in a project. */
export async function requestContext(platform: Platform, req: FastifyRequest, project: string | undefined): Promise<Ctx> {
  const call = await requestCall(platform, req);
  return contextFor(platform, call.principal, { ...call.context, project });
}
