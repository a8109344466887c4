import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { StoaError, errorCodes } from '@stoa/contract';
import {
  assertUnlocked,
  legacyDigestsOf,
  type LegacyDigests,
  copyFile,
  createFolder,
  deadPropsOf,
  folderTree,
  deleteFile,
  deleteFolder,
  listFilesRecursive,
  listFolder,
  lockCovers,
  lockPath,
  locksAround,
  moveFile,
  moveFolder,
  moveOver,
  normalizePath,
  openFile,
  patchDeadProps,
  putFile,
  refreshLocks,
  setFileModified,
  statFile,
  statFolder,
  unlockPath,
  DEFAULT_LOCK_SECONDS,
  MAX_LOCK_SECONDS,
  type Ctx,
  type DeadProp,
  type DeadPropChange,
  type FileInfo,
  type FolderEntry,
  type Platform,
  type WriteLock,
} from '@stoa/core';
import { setRetryAfter, toStoaError } from '../http/problem.js';
import { contentDisposition, parseRange } from '../routes/files/content-disposition.js';
import { davContext } from './dav-auth.js';
import { davHref, davPath, destinationPath } from './dav-paths.js';
import { checkPreconditions, contentEtag, ifHeaderHolds, parseIfHeader, submittedTokens, type ResourceState } from './conditions.js';
import {
  DAV,
  MULTISTATUS_CLOSE,
  MULTISTATUS_OPEN,
  child,
  davDocument,
  davEl,
  errorBody,
  parseXml,
  responseXml,
  valueXml,
  type PropOut,
  type XElement,
} from './xml.js';

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';
const OC = 'http://owncloud.org/ns';
const XML_TYPE = 'application/xml; charset=utf-8';
const PAGE = 1000;

type Target = { kind: 'file'; path: string; info: FileInfo } | { kind: 'folder'; path: string; folder: FolderEntry } | { kind: 'none'; path: string };

/** What is at a path, through core operations only. */
async function resolve(ctx: Ctx, path: string): Promise<Target> {
  if (path !== '') {
    try {
      return { kind: 'file', path, info: await statFile(ctx, path) };
    } catch (e) {
      if (!(e instanceof StoaError) || e.code !== 'not_found') throw e;
    }
  }
  const folder = await statFolder(ctx, path);
  return folder ? { kind: 'folder', path, folder } : { kind: 'none', path };
}

const etagOf = (t: Target) => (t.kind === 'file' ? t.info.sha256 : null);

async function stateOf(ctx: Ctx, t: Target): Promise<ResourceState> {
  const locks = t.kind === 'none' && t.path === '' ? [] : await locksAround(ctx, t.path);
  return {
    exists: t.kind !== 'none',
    etag: etagOf(t),
    modified: t.kind === 'file' ? new Date(t.info.modified) : null,
    lockTokens: locks.filter((l) => lockCovers(l, t.path)).map((l) => l.token),
  };
}

/** A precondition answer; `body` names the RFC 4918 condition when there is one. */
class DavStatus extends Error {
  constructor(
    readonly status: number,
    readonly body?: string,
  ) {
    super(`status ${status}`);
  }
}

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

// ---- properties ----

function lockActive(mount: string, l: WriteLock) {
  const remaining = Math.max(0, Math.round((Date.parse(l.expiresAt) - Date.now()) / 1000));
  return davEl('activelock', [
    davEl('locktype', [davEl('write', [])]),
    davEl('lockscope', [davEl(l.scope, [])]),
    davEl('depth', l.depth === '0' ? '0' : 'infinity'),
    ...(l.owner ? [{ 'd:owner': [{ '#text': l.owner }] }] : []),
    davEl('timeout', `Second-${remaining}`),
    davEl('locktoken', [davEl('href', l.token)]),
    davEl('lockroot', [davEl('href', davHref(mount, l.path, false))]),
  ]);
}

const SUPPORTED_LOCK = ['exclusive', 'shared'].map((s) => davEl('lockentry', [davEl('lockscope', [davEl(s, [])]), davEl('locktype', [davEl('write', [])])]));

/** Every live property of an entry, by "ns name". */
function liveProps(mount: string, t: Target, locks: WriteLock[], digests: Map<string, LegacyDigests>): PropOut[] {
  const mine = locks.filter((l) => lockCovers(l, t.path));
  const props: PropOut[] = [
    { ns: DAV, name: 'resourcetype', nodes: t.kind === 'folder' ? [davEl('collection', [])] : [] },
    { ns: DAV, name: 'supportedlock', nodes: SUPPORTED_LOCK },
    { ns: DAV, name: 'lockdiscovery', nodes: mine.map((l) => lockActive(mount, l)) },
    { ns: DAV, name: 'displayname', text: t.path.split('/').pop() || 'Project files' },
  ];
  if (t.kind === 'file') {
    const f = t.info;
    props.push(
      { ns: DAV, name: 'getcontentlength', text: String(f.size) },
      { ns: DAV, name: 'getcontenttype', text: f.type },
      { ns: DAV, name: 'getetag', text: contentEtag(f.sha256) },
      { ns: DAV, name: 'getlastmodified', text: new Date(f.modified).toUTCString() },
      { ns: DAV, name: 'creationdate', text: new Date(f.created).toISOString() },
      { ns: OC, name: 'checksums', nodes: [{ checksum: [{ '#text': checksumsText(f.sha256, digests.get(f.sha256)) }] }] },
    );
  } else {
    const now = new Date();
    props.push({ ns: DAV, name: 'getlastmodified', text: now.toUTCString() }, { ns: DAV, name: 'creationdate', text: now.toISOString() });
  }
  return props;
}

/** The owncloud checksum list: "SHA1:… MD5:… SHA256:…" when the legacy digests were asked for, else sha256 alone. */
function checksumsText(sha256: string, d: LegacyDigests | undefined): string {
  return d ? `SHA1:${d.sha1} MD5:${d.md5} SHA256:${sha256}` : `SHA256:${sha256}`;
}

/** True when a PROPFIND names oc:checksums (rclone's nextcloud/owncloud vendors do; allprop does not get them). */
function asksForChecksums(req: PropRequest): boolean {
  return req.kind === 'prop' && req.names.some((n) => n.ns === OC && n.name === 'checksums');
}

type PropRequest =
  { kind: 'allprop'; include: Array<{ ns: string; name: string }> } | { kind: 'propname' } | { kind: 'prop'; names: Array<{ ns: string; name: string }> };

function parsePropfind(root: XElement | null): PropRequest {
  if (!root) return { kind: 'allprop', include: [] };
  if (root.ns !== DAV || root.name !== 'propfind') throw new StoaError('bad_request', 'PROPFIND body must be a DAV:propfind element');
  if (child(root, 'propname')) return { kind: 'propname' };
  const prop = child(root, 'prop');
  if (prop) return { kind: 'prop', names: prop.children.map((c) => ({ ns: c.ns, name: c.name })) };
  if (child(root, 'allprop')) return { kind: 'allprop', include: (child(root, 'include')?.children ?? []).map((c) => ({ ns: c.ns, name: c.name })) };
  throw new StoaError('bad_request', 'PROPFIND body must ask for prop, allprop or propname');
}

function entryXml(mount: string, t: Target, req: PropRequest, locks: WriteLock[], dead: DeadProp[], digests: Map<string, LegacyDigests> = new Map()): string {
  const href = davHref(mount, t.path, t.kind === 'folder');
  const all: PropOut[] = [...liveProps(mount, t, locks, digests), ...dead.map((d) => ({ ns: d.ns, name: d.name, xml: d.value }))];
  if (req.kind === 'propname') return responseXml(href, [{ status: 200, props: all.map((p) => ({ ns: p.ns, name: p.name })) }]);
  if (req.kind === 'allprop') return responseXml(href, [{ status: 200, props: all }]);
  const found: PropOut[] = [];
  const missing: PropOut[] = [];
  for (const n of req.names) {
    const p = all.find((x) => x.ns === n.ns && x.name === n.name);
    if (p) found.push(p);
    else missing.push({ ns: n.ns, name: n.name });
  }
  return responseXml(href, [
    { status: 200, props: found },
    { status: 404, props: missing },
  ]);
}

/** PROPFIND: depth 0 or 1, streamed a page at a time, so memory stays bounded for any folder size. */
async function propfind(ctx: Ctx, mount: string, t: Target, depth: string, req: PropRequest, reply: FastifyReply) {
  if (depth !== '0' && depth !== '1') throw new DavStatus(403, errorBody('propfind-finite-depth'));
  const folder = t.kind === 'folder' ? t.path : '';
  const locks = await locksAround(ctx, t.kind === 'folder' ? folder : t.path);
  async function* body() {
    yield MULTISTATUS_OPEN;
    const own = t.kind === 'file' ? await deadPropsOf(ctx, [t.info.id]) : new Map<string, DeadProp[]>();
    const sums = asksForChecksums(req);
    yield entryXml(
      mount,
      t,
      req,
      locks,
      t.kind === 'file' ? (own.get(t.info.id) ?? []) : [],
      sums && t.kind === 'file' ? await legacyDigestsOf(ctx, [t.info]) : undefined,
    );
    if (t.kind === 'folder' && depth === '1') {
      let cursor: string | null = null;
      let first = true;
      do {
        const page: Awaited<ReturnType<typeof listFolder>> = await listFolder(ctx, { folder, cursor, limit: PAGE });
        if (first) for (const d of page.folders) yield entryXml(mount, { kind: 'folder', path: d.path, folder: d }, req, locks, []);
        first = false;
        const dead = await deadPropsOf(
          ctx,
          page.files.map((f) => f.id),
        );
        const digests = sums ? await legacyDigestsOf(ctx, page.files) : undefined;
        for (const f of page.files) yield entryXml(mount, { kind: 'file', path: f.path, info: f }, req, locks, dead.get(f.id) ?? [], digests);
        cursor = page.nextCursor;
      } while (cursor);
    }
    yield MULTISTATUS_CLOSE;
  }
  return reply.code(207).type(XML_TYPE).send(Readable.from(body()));
}

/** PROPPATCH: all or nothing (RFC 4918 §9.2); dead properties on files, getlastmodified settable. */
async function proppatch(ctx: Ctx, mount: string, t: Target, root: XElement | null, reply: FastifyReply) {
  if (!root || root.ns !== DAV || root.name !== 'propertyupdate') throw new StoaError('bad_request', 'PROPPATCH body must be a DAV:propertyupdate element');
  const changes: DeadPropChange[] = [];
  const results: Array<{ ns: string; name: string; status: number }> = [];
  let modified: Date | null = null;
  for (const op of root.children.filter((c) => c.ns === DAV && (c.name === 'set' || c.name === 'remove'))) {
    for (const p of child(op, 'prop')?.children ?? []) {
      let status = 200;
      if (p.ns === DAV) {
        const d = new Date(p.text);
        if (p.name === 'getlastmodified' && op.name === 'set' && t.kind === 'file' && !Number.isNaN(d.getTime())) modified = d;
        else status = 403;
      } else if (t.kind !== 'file') status = 403;
      else if (op.name === 'set') changes.push({ op: 'set', ns: p.ns, name: p.name, value: valueXml(p) });
      else changes.push({ op: 'remove', ns: p.ns, name: p.name });
      results.push({ ns: p.ns, name: p.name, status });
    }
  }
  const failed = results.some((r) => r.status !== 200);
  if (!failed && t.kind === 'file') {
    await patchDeadProps(ctx, t.path, changes);
    if (modified) await setFileModified(ctx, { path: t.path, modified });
  }
  const groups = new Map<number, PropOut[]>();
  for (const r of results) {
    const status = failed && r.status === 200 ? 424 : r.status;
    groups.set(status, [...(groups.get(status) ?? []), { ns: r.ns, name: r.name }]);
  }
  const href = davHref(mount, t.path, t.kind === 'folder');
  return reply
    .code(207)
    .type(XML_TYPE)
    .send(
      MULTISTATUS_OPEN +
        responseXml(
          href,
          [...groups].map(([status, props]) => ({ status, props })),
        ) +
        MULTISTATUS_CLOSE,
    );
}

// ---- reading ----

async function get(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, t: Target, head: boolean) {
  if (t.kind === 'none') throw new StoaError('not_found', `"${t.path}" does not exist`);
  if (t.kind === 'folder') {
    const page = await listFolder(ctx, { folder: t.path, limit: 1000 });
    const lines = [...page.folders.map((d) => `${d.name}/`), ...page.files.map((f) => f.name)].join('\n');
    return reply.type('text/plain; charset=utf-8').send(head ? undefined : lines + '\n');
  }
  const range = parseRange(req.headers.range);
  const opened = await openFile(ctx, t.path, { range: range ?? undefined });
  reply
    .header('ETag', contentEtag(opened.sha256))
    .header('Last-Modified', new Date(opened.info.modified).toUTCString())
    .header('Accept-Ranges', 'bytes')
    .header('OC-Checksum', `SHA256:${opened.sha256}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition('attachment', opened.info.name))
    .type(opened.info.type);
  if (opened.range)
    reply
      .code(206)
      .header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`)
      .header('Content-Length', String(opened.range.end - opened.range.start + 1));
  else reply.header('Content-Length', String(opened.size));
  if (head) {
    opened.stream.destroy();
    return reply.send();
  }
  return reply.send(opened.stream);
}

// ---- copy and move ----

/** Whether a folder holds nothing: replacing it loses nothing. */
async function isEmptyFolder(ctx: Ctx, f: FolderEntry): Promise<boolean> {
  if (f.fileCount > 0) return false;
  return (await listFolder(ctx, { folder: f.path, limit: 1 })).folders.length === 0;
}

/**
 * Folder onto an existing folder with Overwrite: T. RFC 4918 would delete the target first; Stoa never drops
 * files, so the trees merge: a file at the same path gets the source's content as a new version (history
 * kept), files only at the target stay.
 */
async function mergeFolder(ctx: Ctx, from: string, to: string, move: boolean): Promise<void> {
  // Subfolders first, so empty ones arrive too.
  for (const d of (await folderTree(ctx)).filter((x) => x.path.startsWith(from + '/'))) {
    const dest = to + d.path.slice(from.length);
    if ((await resolve(ctx, dest)).kind === 'none') await createFolder(ctx, { path: dest });
  }
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listFilesRecursive>> = await listFilesRecursive(ctx, { prefix: from, cursor, limit: PAGE });
    for (const f of page.files) {
      const dest = to + f.path.slice(from.length);
      if (!move) await copyFile(ctx, { from: f.path, to: dest, overwrite: true });
      else if ((await resolve(ctx, dest)).kind === 'file') await moveOver(ctx, { from: f.path, to: dest });
      else await moveFile(ctx, { from: f.path, to: dest });
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (move) await deleteFolder(ctx, { path: from, recursive: true });
}

async function copyOrMove(ctx: Ctx, req: FastifyRequest, mount: string, src: Target, move: boolean): Promise<number> {
  const to = destinationPath(req.headers.destination as string | undefined, mount);
  if (to === null || to === '') throw new StoaError('bad_request', 'Destination must be a path under the same WebDAV mount');
  normalizePath(to);
  const ow = String(req.headers.overwrite ?? 'T').toUpperCase();
  if (ow !== 'T' && ow !== 'F') throw new StoaError('bad_request', 'Overwrite must be T or F');
  if (src.kind === 'none') throw new StoaError('not_found', `"${src.path}" does not exist`);
  if (to === src.path) throw new DavStatus(403);
  if (src.kind === 'folder' && (to + '/').startsWith(src.path + '/')) throw new DavStatus(403);
  const target = await resolve(ctx, to);
  if (target.kind !== 'none' && ow === 'F') throw new DavStatus(412);
  const tokens = submittedTokens(parseIfHeader(req.headers.if as string | undefined));
  await assertUnlocked(ctx, [...(move ? [{ path: src.path, member: true, subtree: true }] : []), { path: to, member: true, subtree: true }], tokens);
  if (target.kind === 'folder' && (await isEmptyFolder(ctx, target.folder))) {
    await deleteFolder(ctx, { path: to });
  } else if (target.kind === 'folder' && src.kind === 'folder') {
    await mergeFolder(ctx, src.path, to, move);
    return 204;
  } else if (target.kind !== 'none' && src.kind !== target.kind) {
    throw new StoaError('already_exists', `"${to}" is a ${target.kind} with content; it is never replaced by a ${src.kind}`);
  }
  const replaced = target.kind !== 'none';
  if (src.kind === 'file') {
    if (!move) await copyFile(ctx, { from: src.path, to, overwrite: true });
    else if (target.kind === 'file') await moveOver(ctx, { from: src.path, to });
    else await moveFile(ctx, { from: src.path, to });
  } else if (move) {
    await moveFolder(ctx, { from: src.path, to });
  } else {
    await createFolder(ctx, { path: to });
    if (String(req.headers.depth ?? 'infinity') !== '0') await mergeFolder(ctx, src.path, to, false);
  }
  return replaced ? 204 : 201;
}

// ---- locks ----

function timeoutSeconds(h: string | undefined): number {
  const first = (h ?? '').split(',')[0]!.trim();
  if (/^Infinite$/i.test(first)) return MAX_LOCK_SECONDS;
  const m = /^Second-(\d+)$/i.exec(first);
  return m ? Math.min(Number(m[1]), MAX_LOCK_SECONDS) : DEFAULT_LOCK_SECONDS;
}

async function lock(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, mount: string, t: Target, root: XElement | null) {
  const timeout = timeoutSeconds(req.headers.timeout as string | undefined);
  const discovery = (locks: WriteLock[]) =>
    davDocument(
      davEl('prop', [
        davEl(
          'lockdiscovery',
          locks.map((l) => lockActive(mount, l)),
        ),
      ]),
    );
  if (!root) {
    const tokens = submittedTokens(parseIfHeader(req.headers.if as string | undefined));
    if (tokens.length === 0) throw new StoaError('bad_request', 'a LOCK without a body refreshes a lock: send its token in the If header');
    const locks = await refreshLocks(ctx, { path: t.path, tokens, timeoutSeconds: timeout });
    return reply.code(200).type(XML_TYPE).send(discovery(locks));
  }
  const info = root.ns === DAV && root.name === 'lockinfo' ? root : null;
  if (!info) throw new StoaError('bad_request', 'LOCK body must be a DAV:lockinfo element');
  const scope = child(child(info, 'lockscope'), 'shared') ? 'shared' : 'exclusive';
  const owner = child(info, 'owner');
  const depth = String(req.headers.depth ?? 'infinity') === '0' || t.kind === 'file' ? '0' : 'infinity';
  let created = false;
  if (t.kind === 'none') {
    // A lock on an unmapped URL makes an empty file (RFC 4918 §7.3), after checking nobody holds a lock there.
    await assertUnlocked(ctx, [{ path: t.path, member: true }], []);
    await putFile(ctx, { path: t.path, source: '', mode: 'create' });
    created = true;
  }
  const l = await lockPath(ctx, {
    path: t.path,
    scope,
    depth,
    owner: owner ? (owner.children.length ? valueXml(owner) : owner.text).slice(0, 4096) : null,
    timeoutSeconds: timeout,
  });
  return reply
    .code(created ? 201 : 200)
    .header('Lock-Token', `<${l.token}>`)
    .type(XML_TYPE)
    .send(discovery([l]));
}

// ---- the door ----

async function evaluateIf(ctx: Ctx, req: FastifyRequest, mount: string, t: Target): Promise<void> {
  const lists = parseIfHeader(req.headers.if as string | undefined);
  if (lists.length === 0) return;
  const states = new Map<string | null, ResourceState>([[null, await stateOf(ctx, t)]]);
  for (const l of lists) {
    if (l.resource === null || states.has(l.resource)) continue;
    const p = destinationPath(l.resource, mount);
    states.set(l.resource, p === null ? { exists: false, etag: null, modified: null, lockTokens: [] } : await stateOf(ctx, await resolve(ctx, p)));
  }
  if (!ifHeaderHolds(lists, (r) => states.get(r)!)) throw new DavStatus(412);
}

async function handle(platform: Platform, mount: string, project: string | undefined, req: FastifyRequest, reply: FastifyReply) {
  // The core checks locks on every change; the tokens this request submitted go with it.
  const ctx = { ...(await davContext(platform, req, project)), lockTokens: submittedTokens(parseIfHeader(req.headers.if as string | undefined)) };
  const path = davPath(req.url, mount);
  if (path !== '') normalizePath(path);
  const method = req.method.toUpperCase();
  if (method === 'OPTIONS') return reply.header('DAV', '1, 2').header('Allow', ALLOW).header('MS-Author-Via', 'DAV').send();
  const t = await resolve(ctx, path);
  await evaluateIf(ctx, req, mount, t);
  if (['GET', 'HEAD', 'PUT', 'DELETE', 'MOVE', 'COPY', 'PROPPATCH'].includes(method)) {
    const pre = checkPreconditions(method, req.headers, await stateOf(ctx, t));
    if (pre !== null) {
      req.raw.resume();
      if (pre === 304 && t.kind === 'file') reply.header('ETag', contentEtag(t.info.sha256));
      return reply.code(pre).send();
    }
  }
  const tokens = () => submittedTokens(parseIfHeader(req.headers.if as string | undefined));
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
      await assertUnlocked(ctx, [{ path, member: true }], tokens());
      const r = await putFile(ctx, { path, source: req.raw, mode: 'replace' });
      const mtime = Number(req.headers['x-oc-mtime']);
      if (req.headers['x-oc-mtime'] !== undefined && Number.isFinite(mtime) && mtime > 0) {
        await setFileModified(ctx, { path, modified: new Date(mtime * 1000) });
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
      await assertUnlocked(ctx, [{ path, member: true, subtree: true }], tokens());
      if (t.kind === 'folder') await deleteFolder(ctx, { path, recursive: true });
      else await deleteFile(ctx, { path });
      return reply.code(204).send();
    }
    case 'MKCOL': {
      const body = await readBody(req);
      if (body.length > 0) throw new DavStatus(415);
      if (t.kind !== 'none') throw new DavStatus(405);
      await assertUnlocked(ctx, [{ path, member: true }], tokens());
      await createFolder(ctx, { path });
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
        await unlockPath(ctx, { path, token });
      } catch (e) {
        if (e instanceof StoaError && e.code === 'bad_request') throw new DavStatus(409, errorBody('lock-token-matches-request-uri'));
        throw e;
      }
      return reply.code(204).send();
    }
    case 'PROPPATCH': {
      const root = parseXml(await readBody(req));
      if (t.kind === 'none') throw new StoaError('not_found', `"${path}" does not exist`);
      await assertUnlocked(ctx, [{ path }], tokens());
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
