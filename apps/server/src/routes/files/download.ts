import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { filesRoutes, shareRoutes, StoaError, systemRoutes } from '@stoa/contract';
import { callOperation, heldBytes, runGlobalOperation, type OpenedFile, type Platform, type RedirectedFile } from '@stoa/core';
import { requestCall } from '../../http/auth.js';
import { fastifyPath } from '../../http/mount.js';
import { contentEtag, evaluatePreconditions, httpDate, ifRangeHolds, type Representation } from '../../http/preconditions.js';
import { sendProblem } from '../../http/problem.js';
import { contentDisposition, parseRange } from './content-disposition.js';
import { USER_CONTENT_CSP } from '../../http/security-headers.js';
import { sendShareRefusal } from './share-link-page.js';

/** What the conditional headers compare for served bytes: their hash, and Last-Modified when they are the current version. */
function representationOf(f: Pick<OpenedFile, 'info' | 'sha256' | 'version'>): Representation {
  return { exists: true, sha256: f.sha256, modified: f.version === f.info.version ? new Date(f.info.modified) : null };
}

/**
 * GET file content: always an attachment (F12), nosniff, strong ETag (content hash), Last-Modified, single byte
 * ranges, and the RFC 9110 conditions of ../../http/preconditions.ts.
 */
export function mountDownload(app: FastifyInstance, platform: Platform): void {
  const route = filesRoutes.download;
  app.get('/api/v1' + fastifyPath(route.path), async (req, reply) => {
    try {
      const range = parseRange(req.headers.range);
      const ifRange = req.headers['if-range'] !== undefined;
      const input = { ...(req.query as object), ...(req.params as object) };
      const call = await requestCall(platform, req);
      // Object storage cannot honour our If-Range (its ETag is not the content hash): such a request gets the bytes from here.
      const open = async (r: typeof range) =>
        (await callOperation(call, route.id, input, { range: r ?? undefined, mayRedirect: !ifRange })) as OpenedFile | RedirectedFile;
      let opened: OpenedFile | RedirectedFile;
      try {
        opened = await open(range);
      } catch (e) {
        // A range past the end of content the client does not hold is no range at all: the whole file.
        if (!(ifRange && e instanceof StoaError && e.code === 'range_not_satisfiable')) throw e;
        opened = await open(null);
        if (!('url' in opened) && ifRangeHolds(req.headers, representationOf(opened))) {
          opened.stream.destroy();
          throw e;
        }
      }
      if ('url' in opened) return sendRedirect(reply, req, opened);
      if (opened.range && !ifRangeHolds(req.headers, representationOf(opened))) {
        // If-Range names other content: the whole current file (200), never its tail glued to the client's prefix.
        opened.stream.destroy();
        opened = (await open(null)) as OpenedFile;
      }
      return sendDownload(reply, req, opened);
    } catch (e) {
      if (e instanceof StoaError && e.code === 'range_not_satisfiable') reply.header('Content-Range', `bytes */${(e.details as any)?.size ?? '*'}`);
      return sendProblem(reply, req, e);
    }
  });
}

/** Answers 304 or 412 when the conditional headers say so (the stream, if any, is let go); false otherwise. */
function answeredByConditions(reply: FastifyReply, req: FastifyRequest, r: Representation, stream?: { destroy(): void }): boolean {
  const pre = evaluatePreconditions(req.method, req.headers, r);
  if (pre === null) return false;
  stream?.destroy();
  if (pre === 304) reply.code(304).send();
  else sendProblem(reply, req, new StoaError('precondition_failed', 'the file does not match the If-Match / If-Unmodified-Since conditions'));
  return true;
}

/**
 * Sends file bytes as a download: attachment under its name, nosniff, a sandboxing CSP, strong ETag (its hash),
 * Last-Modified, 304/412 by the conditional headers, and 206 with Content-Range for a range. The download route
 * and signed links share it.
 */
function sendDownload(
  reply: FastifyReply,
  req: FastifyRequest,
  opened: Pick<OpenedFile, 'info' | 'sha256' | 'version' | 'size' | 'stream' | 'range'>,
): FastifyReply {
  const r = representationOf(opened);
  reply
    .header('ETag', contentEtag(opened.sha256))
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition('attachment', opened.info.name))
    .header('Content-Security-Policy', USER_CONTENT_CSP)
    .header('Cache-Control', 'private, no-cache')
    .header('X-Stoa-Version', String(opened.version))
    .type(opened.info.type);
  if (r.modified) reply.header('Last-Modified', httpDate(r.modified));
  if (answeredByConditions(reply, req, r, opened.stream)) return reply;
  if (opened.range) {
    reply
      .code(206)
      .header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`)
      .header('Content-Length', String(opened.range.end - opened.range.start + 1));
  } else {
    reply.header('Content-Length', String(opened.size));
  }
  // Bytes already in memory (a small blob kept in the database) go out with the headers in one write, without a
  // stream to pipe (issue 30); the stream holding them is let go unread.
  const bytes = heldBytes(opened.stream);
  if (bytes === null) return reply.send(opened.stream);
  opened.stream.destroy();
  return reply.send(bytes);
}

/**
 * Answers a download with a redirect to object storage: authorised here (and counted against an agent's read
 * limit), carried by the bucket. The conditional headers are answered from here (304, 412).
 */
function sendRedirect(reply: FastifyReply, req: FastifyRequest, file: RedirectedFile): FastifyReply {
  const r = representationOf(file);
  reply.header('ETag', contentEtag(file.sha256)).header('X-Stoa-Version', String(file.version)).header('Cache-Control', 'private, no-store');
  if (r.modified) reply.header('Last-Modified', httpDate(r.modified));
  if (answeredByConditions(reply, req, r)) return reply;
  return reply.code(302).header('Location', file.url).send();
}

/** GET /files/signed/{token} (a link from files.resolve) and GET /share-links/{token}: bytes without a token (the link is the credential). */
export function mountSignedLinks(app: FastifyInstance, platform: Platform): void {
  app.get('/api/v1' + fastifyPath(systemRoutes.signedFile.path), async (req, reply) => {
    try {
      const token = (req.params as { token: string }).token;
      return sendDownload(reply, req, (await runGlobalOperation({ platform, principal: null }, systemRoutes.signedFile.id, { token })) as OpenedFile);
    } catch (e) {
      return sendProblem(reply, req, e);
    }
  });
  // A share link (issue 31): the file as a download, or a page saying why the link no longer opens.
  app.get('/api/v1' + fastifyPath(shareRoutes.open.path), async (req, reply) => {
    try {
      const token = (req.params as { token: string }).token;
      if (token.length > 500) throw new StoaError('not_found', 'this share link does not exist');
      return sendDownload(reply, req, (await runGlobalOperation({ platform, principal: null }, shareRoutes.open.id, { token })) as OpenedFile);
    } catch (e) {
      return sendShareRefusal(reply, req, e) ?? sendProblem(reply, req, e);
    }
  });
}
