import type { FastifyInstance } from 'fastify';
import { filesRoutes } from '@stoa/contract';
import { callOperation, type Platform, type PutFileResult } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { endRefusedBody } from '../../http/refused-body.js';

/**
 * Raw-body uploads: the request stream goes straight to the blob store, never buffered whole. Mounted in a
 * scope whose only body parser leaves the body unread, so any Content-Type is stored as bytes.
 */
export function mountUploads(app: FastifyInstance, platform: Platform): void {
  const put = filesRoutes.upload;
  app.put('/api/v1' + fastifyPath(put.path), async (req, reply) => {
    try {
      const input = { ...(req.query as Record<string, unknown>), ...(req.params as object) };
      const ifMatch = req.headers['if-match'];
      if (input.expectedVersion === undefined && typeof ifMatch === 'string' && /^"?\d+"?$/.test(ifMatch)) input.expectedVersion = ifMatch.replace(/"/g, '');
      const result = (await callOperation(await requestCall(platform, req), put.id, input, { source: req.raw })) as PutFileResult;
      return reply
        .code(result.created ? 201 : 200)
        .header('ETag', `"${result.file.sha256}"`)
        .send(result);
    } catch (e) {
      endRefusedBody(req, reply);
      return sendProblem(reply, req, e);
    }
  });
  for (const send of [filesRoutes.sendUpload, filesRoutes.sendUploadPart]) {
    app.put('/api/v1' + fastifyPath(send.path), async (req, reply) => {
      try {
        return reply.send(
          await callOperation(await requestCall(platform, req), send.id, { ...(req.query as object), ...(req.params as object) }, { source: req.raw }),
        );
      } catch (e) {
        endRefusedBody(req, reply);
        return sendProblem(reply, req, e);
      }
    });
  }
}
