import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoaError, errorCodes } from '@stoa/contract';
import { heldBytes, normalizePath, type Ctx, type Platform } from '@stoa/core';
import { setRetryAfter, toStoaError } from '../http/problem.js';
import { contentDisposition, parseRange } from '../routes/files/content-disposition.js';
import { USER_CONTENT_CSP } from '../http/security-headers.js';
import { davContext } from './dav-auth.js';
import { davOps } from './dav-ops.js';
import { copyOrMove } from './dav-copy-move.js';
import { lock } from './dav-lock.js';
import { davPath, destinationPath } from './dav-paths.js';
import { parsePropfind, propfind, proppatch } from './dav-props.js';
import { DavStatus, XML_TYPE, resolve, stateOf, type Target } from './dav-resource.js';
import { asPreconditionFailure, contentEtag, evaluatePreconditions, hasWriteConditions, httpDate, ifRangeHolds } from '../http/preconditions.js';
import { ifHeaderHolds, parseIfHeader, submittedTokens, type ResourceState } from './conditions.js';
import { errorBody, parseXml } from './xml.js';

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

async function readBody(req: FastifyRequest, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req.raw) {
    n += (c as Buffer).length;
    if (n > limit) throw new StoaError('too_large', 'request body is too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// ---- reading ----

async function get(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, t: Target, head: boolean) {
  if (t.kind === 'none') throw new StoaError('not_found', `"${t.path}" does not exist`);
  if (t.kind === 'folder') {
    const page = await davOps.listFolder(ctx, { folder: t.path, limit: 1000 });
    const lines = [...page.folders.map((d) => `${d.name}/`), ...page.files.map((f) => f.name)].join('\n');
    return reply.type('text/plain; charset=utf-8').send(head ? undefined : lines + '\n');
  }
  // A range only of the content the client holds (If-Range): otherwise the whole file, never a splice of two.
  const range = ifRangeHolds(req.headers, { exists: true, sha256: t.info.sha256, modified: new Date(t.info.modified) }) ? parseRange(req.headers.range) : null;
  let opened = await davOps.open(ctx, t.path, range ?? undefined);
  if (opened.range && !ifRangeHolds(req.headers, { exists: true, sha256: opened.sha256, modified: new Date(opened.info.modified) })) {
    opened.stream.destroy();
    opened = await davOps.open(ctx, t.path);
  }
  reply
    .header('ETag', contentEtag(opened.sha256))
    .header('Last-Modified', httpDate(opened.info.modified))
    .header('Accept-Ranges', 'bytes')
    .header('OC-Checksum', `SHA256:${opened.sha256}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', USER_CONTENT_CSP)
    .header('Content-Disposition', contentDisposition('attachment', opened.info.name))
    .type(opened.info.type);
  if (opened.range)
    reply
      .code(206)
      .header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`)
      .header('Content-Length', String(opened.range.end - opened.range.start + 1));
  else reply.header('Content-Length', String(opened.size));
  // Bytes already in memory (a small blob kept in the database) go out in one write with the headers (issue 30).
  const bytes = heldBytes(opened.stream);
  if (head || bytes !== null) {
    opened.stream.destroy();
    return reply.send(head ? undefined : bytes);
  }
  return reply.send(opened.stream);
}

// ---- the door ----

async function evaluateIf(ctx: Ctx, req: FastifyRequest, mount: string, t: Target): Promise<void> {
  const lists = parseIfHeader(req.headers.if as string | undefined);
  if (lists.length === 0) return;
  const states = new Map<string | null, ResourceState>([[null, await stateOf(ctx, t)]]);
  for (const l of lists) {
    if (l.resource === null || states.has(l.resource)) continue;
    const p = destinationPath(l.resource, mount);
    states.set(l.resource, p === null ? { exists: false, sha256: null, modified: null, lockTokens: [] } : await stateOf(ctx, await resolve(ctx, p)));
  }
  if (!ifHeaderHolds(lists, (r) => states.get(r)!)) throw new DavStatus(412);
}

async function handle(platform: Platform, mount: string, project: string | undefined, req: FastifyRequest, reply: FastifyReply) {
  // The runner checks locks on every change (and the mutator again in its transaction); the tokens this request
  // submitted go with it.
  const ctx = { ...(await davContext(platform, req, project)), lockTokens: submittedTokens(parseIfHeader(req.headers.if as string | undefined)) };
  const path = davPath(req.url, mount);
  if (path !== '') normalizePath(path);
  const method = req.method.toUpperCase();
  if (method === 'OPTIONS') return reply.header('DAV', '1, 2').header('Allow', ALLOW).header('MS-Author-Via', 'DAV').send();
  const t = await resolve(ctx, path);
  await evaluateIf(ctx, req, mount, t);
  if (['GET', 'HEAD', 'PUT', 'DELETE', 'MOVE', 'COPY', 'PROPPATCH'].includes(method)) {
    const pre = evaluatePreconditions(method, req.headers, await stateOf(ctx, t));
    if (pre !== null) {
      req.raw.resume();
      if (pre === 304 && t.kind === 'file') reply.header('ETag', contentEtag(t.info.sha256));
      return reply.code(pre).send();
    }
  }
  switch (method) {
    case 'PROPFIND': {
      const body = parsePropfind(parseXml(await readBody(req)));
      if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
      return propfind(ctx, mount, t, String(req.headers.depth ?? 'infinity').toLowerCase(), body, reply);
    }
    case 'GET':
    case 'HEAD':
      return get(ctx, req, reply, t, method === 'HEAD');
    case 'PUT': {
      if (path === '' || t.kind === 'folder') throw new DavStatus(405);
      // Conditions checked above hold in the write's own transaction too: the version they saw is pinned.
      const pinned = hasWriteConditions(req.headers) ? { expectedVersion: t.kind === 'file' ? t.info.version : 0 } : {};
      const r = await davOps.put(ctx, path, req.raw, pinned).catch((e: unknown) => {
        throw asPreconditionFailure(e);
      });
      const mtime = Number(req.headers['x-oc-mtime']);
      if (req.headers['x-oc-mtime'] !== undefined && Number.isFinite(mtime) && mtime > 0) {
        await davOps.setModified(ctx, path, new Date(mtime * 1000));
        reply.header('X-OC-Mtime', 'accepted');
      }
      return reply
        .code(r.created ? 201 : 204)
        .header('ETag', contentEtag(r.file.sha256))
        .header('OC-Checksum', `SHA256:${r.file.sha256}`)
        .send();
    }
    case 'DELETE': {
      req.raw.resume();
      if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
      if (path === '') throw new DavStatus(403);
      if (t.kind === 'folder') await davOps.deleteFolder(ctx, path, true);
      else
        await davOps.deleteFile(ctx, path, hasWriteConditions(req.headers) ? t.info.version : undefined).catch((e: unknown) => {
          throw asPreconditionFailure(e);
        });
      return reply.code(204).send();
    }
    case 'MKCOL': {
      const body = await readBody(req);
      if (body.length > 0) throw new DavStatus(415);
      if (t.kind !== 'none') throw new DavStatus(405);
      await davOps.createFolder(ctx, path);
      return reply.code(201).send();
    }
    case 'MOVE':
    case 'COPY': {
      req.raw.resume();
      return reply.code(await copyOrMove(ctx, req, mount, t, method === 'MOVE')).send();
    }
    case 'LOCK':
      return lock(ctx, req, reply, mount, t, parseXml(await readBody(req)));
    case 'UNLOCK': {
      req.raw.resume();
      const token = /^<(.+)>$/.exec(String(req.headers['lock-token'] ?? '').trim())?.[1];
      if (!token) throw new StoaError('bad_request', 'UNLOCK needs a Lock-Token header');
      try {
        await davOps.unlock(ctx, path, token);
      } catch (e) {
        if (e instanceof StoaError && e.code === 'bad_request') throw new DavStatus(409, errorBody('lock-token-matches-request-uri'));
        throw e;
      }
      return reply.code(204).send();
    }
    case 'PROPPATCH': {
      const root = parseXml(await readBody(req));
      if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
      return proppatch(ctx, mount, t, root, reply);
    }
  }
  req.raw.resume();
  return reply.code(405).header('Allow', ALLOW).send();
}

/** WebDAV errors carry a plain-text reason (clients show the status; people read the text). */
function sendDavError(reply: FastifyReply, e: unknown) {
  if (e instanceof DavStatus) {
    if (e.body) return reply.code(e.status).type(XML_TYPE).send(e.body);
    return reply.code(e.status).send();
  }
  const se = toStoaError(e);
  if (se.code === 'unauthorized') reply.header('WWW-Authenticate', 'Basic realm="Stoa", charset="UTF-8"');
  setRetryAfter(reply, se);
  return reply.code(errorCodes[se.code].status).type('text/plain; charset=utf-8').send(`${se.code}: ${se.message}\n`);
}

/**
 * The project's files over WebDAV (B6): `/dav/` for the default project (an agent token's own project),
 * `/projects/<name>/dav/` for any project. Every method calls the same core operations as the API, so roles,
 * agent scopes, quota, versions and the audit log apply unchanged.
 */
export async function mountDav(app: FastifyInstance, platform: Platform): Promise<void> {
  for (const m of DAV_METHODS) app.addHttpMethod(m, { hasBody: true });
  await app.register(async (dav) => {
    dav.removeAllContentTypeParsers();
    dav.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const methods = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', ...DAV_METHODS];
    const run = (mount: string, project: string | undefined, req: FastifyRequest, reply: FastifyReply) =>
      handle(platform, mount, project, req, reply).catch((e) => {
        req.raw.resume();
        return sendDavError(reply, e);
      });
    dav.route({ method: methods, url: '/dav', handler: (req, reply) => run('/dav', undefined, req, reply) });
    dav.route({ method: methods, url: '/dav/*', handler: (req, reply) => run('/dav', undefined, req, reply) });
    const perProject = (req: FastifyRequest, reply: FastifyReply) => {
      let project: string;
      try {
        project = decodeURIComponent((req.params as { project: string }).project);
      } catch {
        return sendDavError(reply, new StoaError('bad_request', 'the project name has bad percent-encoding'));
      }
      return run(`/projects/${encodeURIComponent(project)}/dav`, project, req, reply);
    };
    dav.route({ method: methods, url: '/projects/:project/dav', handler: perProject });
    dav.route({ method: methods, url: '/projects/:project/dav/*', handler: perProject });
  });
}
