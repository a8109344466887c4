import type { FastifyInstance } from 'fastify';
import { signInRoutes } from '@stoa/contract';
import { runGlobalOperation, type Platform } from '@stoa/core';
import { publicOrigin } from './public-origin.js';
import { sessionCookie } from './auth-routes.js';
import { fastifyPath } from './mount.js';
import { sendProblem } from './problem.js';

/**
 * The public sign-in operations (issue 31): the core checks the credential and throttles failures per client
 * address; the door turns the session they answer into this browser's HttpOnly session cookie.
 */
export function mountSignInRoutes(app: FastifyInstance, platform: Platform): void {
  for (const route of [signInRoutes.password, signInRoutes.passkey]) {
    app.post('/api/v1' + fastifyPath(route.path), async (req, reply) => {
      try {
        const session = (await runGlobalOperation(
          { platform, principal: null, client: req.ip, origin: publicOrigin(platform, req) },
          route.id,
          route.input.parse(req.body ?? {}),
        )) as {
          token: string;
          user: string;
        };
        return reply.header('Set-Cookie', sessionCookie(req, session.token)).send(session);
      } catch (e) {
        return sendProblem(reply, req, e);
      }
    });
  }
  // Beginning a passkey sign-in proves nothing yet: a plain answer, no cookie.
  const begin = signInRoutes.passkeyOptions;
  app.post('/api/v1' + fastifyPath(begin.path), async (req, reply) => {
    try {
      return reply.send(
        await runGlobalOperation(
          { platform, principal: null, client: req.ip, origin: publicOrigin(platform, req) },
          begin.id,
          begin.input.parse(req.body ?? {}),
        ),
      );
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
  app.get('/api/v1' + fastifyPath(signInRoutes.methods.path), async () => runGlobalOperation({ platform, principal: null }, signInRoutes.methods.id, {}));
  // Single sign-on: the browser is sent to the provider and back. A refusal lands on the sign-in page with a plain
  // note (the reason stays in the server's answer to the provider's redirect, never in the page).
  for (const route of [signInRoutes.oidcStart, signInRoutes.oidcCallback]) {
    app.get('/api/v1' + fastifyPath(route.path), async (req, reply) => {
      try {
        const input = route.input.parse(req.query ?? {});
        const { location } = (await runGlobalOperation(
          { platform, principal: null, client: req.ip, origin: publicOrigin(platform, req) },
          route.id,
          input,
        )) as {
          location: string;
        };
        return reply.header('cache-control', 'no-store').redirect(location, 302);
      } catch (e) {
        if (route === signInRoutes.oidcCallback && !(e as { code?: string })?.code?.startsWith('rate')) return reply.redirect('/login?sso=failed', 302);
        return sendProblem(reply, req, e);
      }
    });
  }
}
