import type { FastifyRequest } from 'fastify';
import { StoaError } from '@stoa/contract';
import { contextFor, type Ctx, type Platform } from '@stoa/core';
import { bearerToken, principalFromToken } from '../http/auth.js';

/**
 * WebDAV clients (file managers, davfs2, rclone) speak Basic auth: any user name, the API token as password.
 * Bearer tokens work too.
 */
function davToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h && /^Basic\s+/i.test(h)) {
    const decoded = Buffer.from(h.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    return i >= 0 ? decoded.slice(i + 1) : decoded;
  }
  return bearerToken(req);
}

export async function davContext(platform: Platform, req: FastifyRequest, project: string | undefined): Promise<Ctx> {
  const token = davToken(req);
  if (!token) throw new StoaError('unauthorized', 'a valid token is required');
  return contextFor(platform, await principalFromToken(platform, req, token), { project });
}
