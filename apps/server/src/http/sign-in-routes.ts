import type { FastifyInstance } from 'fastify';
import { signInRoutes } from '@stoa/contract';
import { runGlobalOperation, type Platform } from '@stoa/core';
import { sessionCookie } from './auth-routes.js';
import { fastifyPath } from './mount.js';
import { sendProblem } from './problem.js';

/**
 * The public sign-in operations (issue 31): the core checks the credential and throttles failures per client
 * address; the door turns the session they answer into this browser's HttpOnly session cookie.
 */
export function mountSignInRoutes(app: FastifyInstance, platform: Platform): void {
  for (const route of [signInRoutes.password]) {
    app.post('/api/v1' + fastifyPath(route.path), async (req, reply) => {
      try {
        const session = (await runGlobalOperation({ platform, principal: null, client: req.ip }, route.id, route.input.parse(req.body ?? {}))) as {
          token: string;
          user: string;
        };
        return reply.header('Set-Cookie', sessionCookie(req, session.token)).send(session);
      } catch (e) {
        return sendProblem(reply, req, e);
      }
    });
  }
}
