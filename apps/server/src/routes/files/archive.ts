import type { FastifyInstance } from 'fastify';
import { filesRoutes } from '@stoa/contract';
import { callOperation, type Archive, type Platform } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { contentDisposition } from './content-disposition.js';
import { USER_CONTENT_CSP } from '../../http/security-headers.js';

/**
 * POST files/archive: many files as one zip, streamed as it is made (no length known ahead). Every check is done
 * by the core before this answers, so a refusal is a problem answer, never a cut-off zip.
 */
export function mountArchive(app: FastifyInstance, platform: Platform): void {
  const route = filesRoutes.archive;
  app.post('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const input = { ...((req.body as object | null) ?? {}), ...(req.params as object) };
      const zip = (await callOperation(await requestCall(platform, req), route.id, input)) as Archive;
      return reply
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', USER_CONTENT_CSP)
        .header('Content-Disposition', contentDisposition('attachment', zip.name))
        .header('Cache-Control', 'private, no-store')
        .header('X-Stoa-Files', String(zip.files))
        .type('application/zip')
        .send(zip.stream);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
}
