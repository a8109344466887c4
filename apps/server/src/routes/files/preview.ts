import type { FastifyInstance } from 'fastify';
import { filesRoutes, StoaError, thumbnailRoutes } from '@stoa/contract';
import { callOperation, type Platform, type Preview } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { contentDisposition } from './content-disposition.js';

/**
 * Preview content (F11). Text of every kind, HTML and SVG included, is served as text/plain so it is shown
 * as source and never rendered; a sandboxing CSP backs that up.
 */
export function mountPreview(app: FastifyInstance, platform: Platform): void {
  const route = filesRoutes.preview;
  app.get('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const input = { ...(req.query as Record<string, unknown>), ...(req.params as object) };
      const infoOnly = input.info === 'true';
      const p = (await callOperation(await requestCall(platform, req), route.id, input)) as Preview;
      if (infoOnly) return reply.send({ file: p.info, kind: p.kind, reason: p.reason ?? null, limit: p.limit ?? null });
      if (p.kind === 'none') {
        if (p.reason === 'too_large')
          throw new StoaError('too_large', `"${p.info.name}" is larger than the ${p.limit}-byte preview limit; download it instead`, { limit: p.limit });
        throw new StoaError('preview_unavailable', `no preview for ${p.info.type}; download it instead`);
      }
      return reply
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
        .header('Content-Disposition', contentDisposition('inline', p.info.name))
        .header('Content-Length', String(p.info.size))
        .header('Cache-Control', 'private, no-cache')
        .type(p.contentType!)
        .send(p.stream);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
}

/**
 * A picture's thumbnail for the files grid (issue 31): read access as for the file; tagged by the picture's
 * hash, so a browser revalidates with a 304 until the picture changes.
 */
export function mountThumbnails(app: FastifyInstance, platform: Platform): void {
  const route = thumbnailRoutes.get;
  app.get('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const input = { ...(req.query as Record<string, unknown>), ...(req.params as object) };
      const thumb = (await callOperation(await requestCall(platform, req), route.id, input)) as { bytes: Buffer; sha256: string; type: string };
      const etag = `"thumb-${thumb.sha256}"`;
      reply.header('ETag', etag).header('Cache-Control', 'private, no-cache').header('X-Content-Type-Options', 'nosniff');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.header('Content-Security-Policy', "default-src 'none'; sandbox").type(thumb.type).send(thumb.bytes);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
}
