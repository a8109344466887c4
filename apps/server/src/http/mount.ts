import type { FastifyInstance } from 'fastify';
import { filesRoutes } from '@stoa/contract';
import { callOperation, type Operation, type Platform } from '@stoa/core';
import { requestCall } from './auth.js';
import { sendProblem } from './problem.js';
import { asPreconditionFailure } from './preconditions.js';
import { conditionalWrite } from '../routes/files/conditional-write.js';

/** `/projects/{project}/files` → `/projects/:project/files` (Fastify's syntax). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

/** Collects a route's input from path parameters, query string and JSON body. */
function routeInput(req: { params: unknown; query: unknown; body: unknown }): Record<string, unknown> {
  const body =
    req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && typeof (req.body as any).pipe !== 'function'
      ? (req.body as Record<string, unknown>)
      : {};
  return { ...(req.query as Record<string, unknown>), ...body, ...(req.params as Record<string, unknown>) };
}

/**
 * Mounts a JSON operation of the core's table: collect the input → `callOperation` (validation, context, policy,
 * agent gate, the core function) → reply. Every JSON route goes through here, so no route checks input, auth or
 * errors by itself.
 */
export function mountOperation(app: FastifyInstance, platform: Platform, op: Operation): void {
  const route = op.route;
  app.route({
    method: route.method,
    url: '/api/v1' + fastifyPath(route.path),
    // A folder listing of thousands of files is mostly repeated keys: compressed above 1 kB (issue 13), brotli at
    // the plugin's quality 4 (11 costs more time than it saves).
    compress: { threshold: 1024, encodings: ['br', 'gzip'] },
    handler: async (req, reply) => {
      try {
        const call = await requestCall(platform, req);
        // DELETE of a file honours If-Match / If-None-Match / If-Unmodified-Since like PUT of its content.
        const { input, pinned } =
          op.id === filesRoutes.remove.id ? await conditionalWrite(call, req, routeInput(req)) : { input: routeInput(req), pinned: false };
        const result = await callOperation(call, op.id, input).catch((e: unknown) => {
          throw pinned ? asPreconditionFailure(e) : e;
        });
        return reply.code(route.status ?? 200).send(result ?? { ok: true });
      } catch (e) {
        return sendProblem(reply, req, e);
      }
    },
  });
}
