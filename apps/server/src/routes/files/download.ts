import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { filesRoutes, StoaError, systemRoutes } from '@stoa/contract';
import { callOperation, runGlobalOperation, type OpenedFile, type Platform, type RedirectedFile } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { sendProblem } from '../../http/problem.js';
import { contentDisposition, parseRange } from './content-disposition.js';

/** GET file content: always an attachment (F12), nosniff, strong ETag (content hash), single byte ranges. */
export function mountDownload(app: FastifyInstance, platform: Platform): void {
  const route = filesRoutes.download;
  app.get('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const range = parseRange(req.headers.range);
      const ifRange = req.headers['if-range'];
      const input = { ...(req.query as object), ...(req.params as object) };
      // Object storage cannot honour our If-Range (its ETag is not the content hash): such a request gets the bytes from here.
      const opened = (await callOperation(await requestCall(platform, req), route.id, input, { range: range ?? undefined, mayRedirect: !ifRange })) as
        OpenedFile | RedirectedFile;
      if ('url' in opened) return sendRedirect(reply, req, opened);
      if (opened.range && ifRange && ifRange !== `"${opened.sha256}"`) {
        opened.stream.destroy();
        return sendProblem(reply, req, new StoaError('precondition_failed', 'the file changed since the range was asked for'));
      }
      return sendDownload(reply, req, opened);
    } catch (e) {
      if (e instanceof StoaError && e.code === 'range_not_satisfiable') reply.header('Content-Range', `bytes */${(e.details as any)?.size ?? '*'}`);
      return sendProblem(reply, req, e);
    }
  });
}

/**
 * Sends file bytes as a download: attachment under its name, nosniff, a sandboxing CSP, strong ETag (its hash) with
 * 304, and 206 with Content-Range for a range. The download route and signed links share it.
 */
function sendDownload(
  reply: FastifyReply,
  req: FastifyRequest,
  opened: Pick<OpenedFile, 'info' | 'sha256' | 'version' | 'size' | 'stream' | 'range'>,
): FastifyReply {
  const etag = `"${opened.sha256}"`;
  reply
    .header('ETag', etag)
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition('attachment', opened.info.name))
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-cache')
    .header('X-Stoa-Version', String(opened.version))
    .type(opened.info.type);
  if (req.headers['if-none-match'] === etag && !opened.range) {
    opened.stream.destroy();
    return reply.code(304).send();
  }
  if (opened.range) {
    reply
      .code(206)
      .header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`)
      .header('Content-Length', String(opened.range.end - opened.range.start + 1));
  } else {
    reply.header('Content-Length', String(opened.size));
  }
  return reply.send(opened.stream);
}

/**
 * Answers a download with a redirect to object storage: authorised here (and counted against an agent's read
 * limit), carried by the bucket. A client that holds the current version (If-None-Match) gets 304 from here.
 */
function sendRedirect(reply: FastifyReply, req: FastifyRequest, file: RedirectedFile): FastifyReply {
  const etag = `"${file.sha256}"`;
  reply.header('ETag', etag).header('X-Stoa-Version', String(file.version)).header('Cache-Control', 'private, no-store');
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.code(302).header('Location', file.url).send();
}

/** GET /files/signed/{token}: the bytes behind a link from files.resolve, without a token (the signature is the credential). */
export function mountSignedLinks(app: FastifyInstance, platform: Platform): void {
  app.get('/api/v1' + fastifyPath(systemRoutes.signedFile.path), async (req, reply) => {
    try {
      const token = (req.params as { token: string }).token;
      return sendDownload(reply, req, (await runGlobalOperation({ platform, principal: null }, systemRoutes.signedFile.id, { token })) as OpenedFile);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
}
