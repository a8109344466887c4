import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectRoutes, StoaError } from '@stoa/contract';
import { runGlobalOperation, type Platform } from '@stoa/core';
import { bearerToken, principalFromToken, SESSION_COOKIE } from './auth.js';
import { sendProblem } from './problem.js';

/**
 * The session cookie: HttpOnly (scripts never read it), SameSite=Strict (no other site's page can send it, which
 * is what keeps cookie-authenticated writes safe from cross-site requests), Secure when served over https, Path=/.
 */
export function sessionCookie(req: FastifyRequest, token: string): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

function clearedCookie(req: FastifyRequest): string {
  return sessionCookie(req, '').replace('; Path=/', '; Path=/; Max-Age=0');
}

/**
 * The routes a person reaches without a token: the web UI's login (a one-time code for a session) and redeeming
 * an invitation. Both throttle wrong codes per client address in the core.
 */
export function mountAuthRoutes(app: FastifyInstance, platform: Platform): void {
  app.post('/api/v1/auth/login', async (req, reply) => {
    try {
      const code = (req.body as { code?: unknown } | undefined)?.code;
      if (typeof code !== 'string' || !code) throw new StoaError('bad_request', 'code is required');
      const session = (await runGlobalOperation({ platform, principal: null, client: req.ip }, 'auth.login', { code })) as { token: string; user: string };
      return reply.header('Set-Cookie', sessionCookie(req, session.token)).send(session);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
  // Logging out ends the session server-side (issue 26): a copied cookie or bearer of it stops working too.
  app.post('/api/v1/auth/logout', async (req, reply) => {
    try {
      await runGlobalOperation({ platform, principal: null, client: req.ip }, 'auth.logout', { token: bearerToken(req) });
      return reply.header('Set-Cookie', clearedCookie(req)).send({ ok: true });
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });

  const accept = projectRoutes.acceptInvitation;
  app.post('/api/v1' + accept.path, async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const input = accept.input.parse(req.body ?? {});
      const token = bearerToken(req);
      const principal = token ? await principalFromToken(platform, req, token) : null;
      const accepted = (await runGlobalOperation({ platform, principal, client: req.ip }, accept.id, input)) as { token?: string | null };
      // With a password the new person gets a web session, which this browser keeps as its cookie.
      if (input.password !== undefined && accepted.token) reply.header('Set-Cookie', sessionCookie(req, accepted.token));
      return reply.send(accepted);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
}
