import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { filesRoutes } from '@stoa/contract';
import { callOperation, type Platform, type PutFileResult } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { endRefusedBody } from '../../http/refused-body.js';
import { asPreconditionFailure, contentEtag, httpDate } from '../../http/preconditions.js';
import { conditionalWrite } from './conditional-write.js';

/**
 * Aborted once the client closes the connection before its answer was sent (a cancelled upload in the web UI, a
 * killed CLI): the write is then not kept, though every byte may already have arrived.
 */
function senderGone(res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}

/**
 * Raw-body uploads: the request stream goes straight to the blob store, never buffered whole. Mounted in a
 * scope whose only body parser leaves the body unread, so any Content-Type is stored as bytes.
 */
export function mountUploads(app: FastifyInstance, platform: Platform): void {
  const put = filesRoutes.upload;
  app.put('/api/v1' + fastifyPath(put.path), async (req, reply) => {
    try {
      const call = await requestCall(platform, req);
      const { input, pinned } = await conditionalWrite(call, req, { ...(req.query as Record<string, unknown>), ...(req.params as object) });
      const result = (await callOperation(call, put.id, input, { source: req.raw, signal: senderGone(reply.raw) }).catch((e: unknown) => {
        throw pinned ? asPreconditionFailure(e) : e;
      })) as PutFileResult;
      return reply
        .code(result.created ? 201 : 200)
        .header('ETag', contentEtag(result.file.sha256))
        .header('Last-Modified', httpDate(result.file.modified))
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
