import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { filesRoutes, StoaError } from '@stoa/contract';
import { normalizePath, putFile, type FileInfo, type Platform } from '@stoa/core';
import { requestContext } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { endRefusedBody, multipartBoundaryProblem } from '../../http/refused-body.js';

/**
 * Multipart uploads of one or many files into a folder, names kept (F8). Each part is streamed to storage as
 * it arrives; a part that fails stops the request with that part's error, and the files before it stay.
 */
export async function mountUploadForm(app: FastifyInstance, platform: Platform): Promise<void> {
  await app.register(multipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1000 } });
  const route = filesRoutes.uploadForm;
  app.post('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const input = route.input.parse({ ...(req.query as object), ...(req.params as object) });
      const ctx = await requestContext(platform, req, input.project);
      const folder = normalizePath(input.folder ?? '', 'folder');
      const malformed = multipartBoundaryProblem(req.headers['content-type']);
      if (malformed || !req.isMultipart()) throw new StoaError('bad_request', malformed ?? 'send multipart/form-data with one or more file parts');
      const files: FileInfo[] = [];
      for await (const part of req.files()) {
        const name = part.filename.normalize('NFC');
        const path = folder ? `${folder}/${name}` : name;
        const r = await putFile(ctx, { path, source: part.file });
        files.push(r.file);
      }
      if (files.length === 0) throw new StoaError('bad_request', 'no file parts in the form');
      return reply.code(201).send({ files });
    } catch (e) {
      endRefusedBody(req, reply);
      return sendProblem(reply, req, e);
    }
  });
}
