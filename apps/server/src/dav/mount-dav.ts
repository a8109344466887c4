import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { StoaError, errorCodes } from '@stoa/contract';
import {
  copyFile, deleteFile, listFolder, moveFile, moveOver, normalizePath, openFile, putFile, statFile,
  type Ctx, type FileInfo, type Platform,
} from '@stoa/core';
import { setRetryAfter, toStoaError } from '../http/problem.js';
import { contentDisposition, parseRange } from '../routes/files/content-disposition.js';
import { davContext } from './dav-auth.js';
import { davHref, davPath, destinationPath } from './dav-paths.js';
import { lockDiscovery, multistatus, proppatchOk, type DavEntry } from './xml.js';

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

type Target = { kind: 'file'; info: FileInfo } | { kind: 'folder'; path: string } | { kind: 'none'; path: string };

async function resolve(ctx: Ctx, path: string): Promise<Target> {
  if (path === '') return { kind: 'folder', path: '' };
  try {
    return { kind: 'file', info: await statFile(ctx, path) };
  } catch (e) {
    if (!(e instanceof StoaError) || e.code !== 'not_found') throw e;
  }
  const dir = await ctx.platform.db.kysely.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).where('path', '=', path).executeTakeFirst();
  return dir ? { kind: 'folder', path } : { kind: 'none', path };
}

function fileEntry(mount: string, f: FileInfo): DavEntry {
  return { href: davHref(mount, f.path, false), name: f.name, collection: false, size: f.size, type: f.type, modified: f.modified, created: f.created, etag: f.sha256 };
}

async function propfind(ctx: Ctx, mount: string, path: string, depth: string, reply: FastifyReply) {
  const t = await resolve(ctx, path);
  if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
  if (t.kind === 'file') return reply.code(207).type('application/xml; charset=utf-8').send(multistatus([fileEntry(mount, t.info)]));
  const entries: DavEntry[] = [{ href: davHref(mount, t.path, true), name: t.path.split('/').pop() || 'Project files', collection: true }];
  if (depth !== '0') {
    let cursor: string | null = null;
    let first = true;
    do {
      const page = await listFolder(ctx, { folder: t.path, cursor, limit: 5000 });
      if (first) for (const d of page.folders) entries.push({ href: davHref(mount, d.path, true), name: d.name, collection: true });
      first = false;
      for (const f of page.files) entries.push(fileEntry(mount, f));
      cursor = page.nextCursor;
    } while (cursor);
  }
  return reply.code(207).type('application/xml; charset=utf-8').send(multistatus(entries));
}

async function get(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, path: string, head: boolean) {
  const t = await resolve(ctx, path);
  if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
  if (t.kind === 'folder') {
    const page = await listFolder(ctx, { folder: t.path, limit: 1000 });
    const lines = [...page.folders.map((d) => `${d.name}/`), ...page.files.map((f) => f.name)].join('\n');
    return reply.type('text/plain; charset=utf-8').send(head ? undefined : lines + '\n');
  }
  const range = parseRange(req.headers.range);
  const opened = await openFile(ctx, path, { range: range ?? undefined });
  reply.header('ETag', `"${opened.sha256}"`).header('Last-Modified', new Date(opened.info.modified).toUTCString()).header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff').header('Content-Disposition', contentDisposition('attachment', opened.info.name)).type(opened.info.type);
  if (opened.range) reply.code(206).header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`).header('Content-Length', String(opened.range.end - opened.range.start + 1));
  else reply.header('Content-Length', String(opened.size));
  if (head) {
    opened.stream.destroy();
    return reply.send();
  }
  return reply.send(opened.stream);
}

async function handle(platform: Platform, mount: string, project: string | undefined, req: FastifyRequest, reply: FastifyReply) {
  const ctx = await davContext(platform, req, project);
  const path = davPath(req.url, mount);
  if (path !== '') normalizePath(path);
  const method = req.method.toUpperCase();
  const overwrite = String(req.headers.overwrite ?? 'T').toUpperCase() !== 'F';
  switch (method) {
    case 'OPTIONS':
      return reply.header('DAV', '1, 2').header('Allow', ALLOW).header('MS-Author-Via', 'DAV').send();
    case 'PROPFIND':
      req.raw.resume();
      return propfind(ctx, mount, path, String(req.headers.depth ?? '1'), reply);
    case 'GET':
    case 'HEAD':
      return get(ctx, req, reply, path, method === 'HEAD');
    case 'PUT': {
      if (path === '') throw new StoaError('bad_request', 'cannot write the root folder');
      const mode = req.headers['if-none-match'] === '*' ? 'create' : 'replace';
      const r = await putFile(ctx, { path, source: req.raw, mode });
      return reply.code(r.created ? 201 : 204).header('ETag', `"${r.file.sha256}"`).send();
    }
    case 'DELETE': {
      const t = await resolve(ctx, path);
      if (t.kind === 'none') return reply.code(204).send(); // an empty folder (F2: folders are not stored) is already gone
      if (t.kind === 'folder') throw new StoaError('forbidden', 'a folder cannot be deleted as a whole; delete its files one by one');
      await deleteFile(ctx, { path });
      return reply.code(204).send();
    }
    case 'MKCOL': {
      req.raw.resume();
      const t = await resolve(ctx, path);
      if (t.kind !== 'none') return reply.code(405).send();
      // Folders are not stored (F2): the folder appears with its first file. Say yes so clients go on to upload.
      return reply.code(201).send();
    }
    case 'MOVE':
    case 'COPY': {
      req.raw.resume();
      const to = destinationPath(req.headers.destination as string | undefined, mount);
      if (to === null || to === '') throw new StoaError('bad_request', 'Destination must be a path under the same WebDAV mount');
      const t = await resolve(ctx, path);
      if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
      if (t.kind === 'folder') throw new StoaError('forbidden', 'folders cannot be moved or copied as a whole; move their files one by one');
      const target = await resolve(ctx, to);
      if (target.kind === 'folder') throw new StoaError('forbidden', `"${to}" is a folder`);
      if (target.kind === 'file' && !overwrite) return reply.code(412).send();
      if (method === 'COPY') await copyFile(ctx, { from: path, to, overwrite });
      else if (target.kind === 'file') await moveOver(ctx, { from: path, to });
      else await moveFile(ctx, { from: path, to });
      return reply.code(target.kind === 'file' ? 204 : 201).send();
    }
    case 'LOCK': {
      req.raw.resume();
      const token = `opaquelocktoken:${randomUUID()}`;
      return reply.code(200).header('Lock-Token', `<${token}>`).type('application/xml; charset=utf-8').send(lockDiscovery(token, davHref(mount, path, false), 3600));
    }
    case 'UNLOCK':
      return reply.code(204).send();
    case 'PROPPATCH': {
      const body = await readSmallBody(req);
      return reply.code(207).type('application/xml; charset=utf-8').send(proppatchOk(davHref(mount, path, false), body));
    }
  }
  return reply.code(405).header('Allow', ALLOW).send();
}

async function readSmallBody(req: FastifyRequest, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req.raw) {
    n += (c as Buffer).length;
    if (n > limit) throw new StoaError('too_large', 'request body is too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** WebDAV errors carry a plain-text reason (clients show the status; people read the text). */
function sendDavError(reply: FastifyReply, e: unknown) {
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
    dav.route({ method: methods, url: '/dav', handler: (req, reply) => handle(platform, '/dav', undefined, req, reply).catch((e) => sendDavError(reply, e)) });
    dav.route({ method: methods, url: '/dav/*', handler: (req, reply) => handle(platform, '/dav', undefined, req, reply).catch((e) => sendDavError(reply, e)) });
    const perProject = (req: FastifyRequest, reply: FastifyReply) => {
      const project = decodeURIComponent((req.params as { project: string }).project);
      return handle(platform, `/projects/${encodeURIComponent(project)}/dav`, project, req, reply).catch((e) => sendDavError(reply, e));
    };
    dav.route({ method: methods, url: '/projects/:project/dav', handler: perProject });
    dav.route({ method: methods, url: '/projects/:project/dav/*', handler: perProject });
  });
}
