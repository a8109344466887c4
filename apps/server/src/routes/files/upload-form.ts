import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { filesRoutes, StoaError } from '@stoa/contract';
import { callOperation, type Platform } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { endRefusedBody, multipartBoundaryProblem } from '../../http/refused-body.js';

/**
 * Multipart uploads of one or many files into a folder, names kept (F8). Each part is streamed to storage as
 * it arrives; a part that fails stops the request with that part's error, and the files before it stay.
 */
export async function mountUploadForm(app: FastifyInstance, platform: Platform): Promise<void> {
  // Fields (the folder) are short; only file parts are large (issue 27: no request holds more than it needs).
  await app.register(multipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1000, fields: 100, fieldSize: 64 * 1024, parts: 1100 } });
  const route = filesRoutes.uploadForm;
  app.post('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      // The form is read only once the caller may upload here: who may act is checked before what was sent.
      async function* parts() {
        const malformed = multipartBoundaryProblem(req.headers['content-type']);
        if (malformed || !req.isMultipart()) throw new StoaError('bad_request', malformed ?? 'send multipart/form-data with one or more file parts');
        yield* req.files();
      }
      const input = { ...(req.query as object), ...(req.params as object) };
      return reply.code(201).send(await callOperation(await requestCall(platform, req), route.id, input, { parts: parts() }));
    } catch (e) {
      endRefusedBody(req, reply);
      return sendProblem(reply, req, e);
    }
  });
}
