import type { FastifyInstance } from 'fastify';
import { pathParams } from '@stoa/contract';
import type { Platform } from '@stoa/core';
import type { AnyHandler } from './handler.js';
import { principalOf, requestContext } from './auth.js';
import { sendProblem } from './problem.js';

/** `/projects/{project}/files` → `/projects/:project/files` (Fastify's syntax). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

/** Collects a route's input from path parameters, query string and JSON body. */
export function routeInput(req: { params: unknown; query: unknown; body: unknown }): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && typeof (req.body as any).pipe !== 'function' ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body, ...(req.params as Record<string, unknown>) };
}

/**
 * Mounts a JSON route: validate with the route's schema → build the context → run the handler → reply.
 * Every JSON route goes through here, so no route checks input, auth or errors by itself.
 */
export function mountJson(app: FastifyInstance, platform: Platform, h: AnyHandler): void {
  const route = h.route;
  app.route({
    method: route.method,
    url: '/api/v1' + fastifyPath(route.path),
    handler: async (req, reply) => {
      try {
        const input = route.input.parse(routeInput(req)) as Record<string, any>;
        let result: unknown;
        if (h.scope === 'project') {
          const ctx = await requestContext(platform, req, input.project);
          result = await h.run(ctx, input);
        } else {
          result = await h.run({ platform, principal: await principalOf(platform, req) }, input);
        }
        return reply.code(route.status ?? 200).send(result ?? { ok: true });
      } catch (e) {
        return sendProblem(reply, req, e);
      }
    },
  });
}

export { pathParams };
