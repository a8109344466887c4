import type { FastifyInstance } from 'fastify';
import { filesRoutes } from '@stoa/contract';
import { putFile, receiveUpload, type Platform } from '@stoa/core';
import { requestContext } from '../../http/auth.js';
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
      const input = put.input.parse({ ...(req.query as object), ...(req.params as object) });
      const ctx = await requestContext(platform, req, input.project);
      const ifMatch = req.headers['if-match'];
      const expectedVersion = input.expectedVersion ?? (typeof ifMatch === 'string' && /^"?\d+"?$/.test(ifMatch) ? Number(ifMatch.replace(/"/g, '')) : undefined);
      const result = await putFile(ctx, { path: input.path, source: req.raw, expectedVersion, mode: input.create === 'true' ? 'create' : 'replace' });
      return reply.code(result.created ? 201 : 200).header('ETag', `"${result.file.sha256}"`).send(result);
    } catch (e) {
      endRefusedBody(req, reply);
      return sendProblem(reply, req, e);
    }
  });
  const send = filesRoutes.sendUpload;
  app.put('/api/v1' + fastifyPath(send.path), async (req, reply) => {
    try {
      const input = send.input.parse({ ...(req.query as object), ...(req.params as object) });
      const ctx = await requestContext(platform, req, input.project);
      return reply.send(await receiveUpload(ctx, input.uploadId, req.raw));
    } catch (e) {
      endRefusedBody(req, reply);
      return sendProblem(reply, req, e);
    }
  });
}
