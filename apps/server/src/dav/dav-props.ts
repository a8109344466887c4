import { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { lockCovers, type Ctx, type DeadProp, type DeadPropChange, type LegacyDigests, type WriteLock } from '@stoa/core';
import type { FastifyReply } from 'fastify';
import { contentEtag } from '../http/preconditions.js';
import { davOps } from './dav-ops.js';
import { davHref } from './dav-paths.js';
import { DavStatus, PAGE, XML_TYPE, type Target } from './dav-resource.js';
import { DAV, MULTISTATUS_CLOSE, MULTISTATUS_OPEN, child, davEl, errorBody, responseXml, valueXml, type PropOut, type XElement } from './xml.js';

// Properties of the WebDAV door: PROPFIND (live and dead properties, streamed) and PROPPATCH.

const OC = 'http://owncloud.org/ns';

/** A lock as DAV:activelock, for lockdiscovery and LOCK answers. */
export function lockActive(mount: string, l: WriteLock) {
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

export function parsePropfind(root: XElement | null): PropRequest {
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
export async function propfind(ctx: Ctx, mount: string, t: Target, depth: string, req: PropRequest, reply: FastifyReply) {
  if (depth !== '0' && depth !== '1') throw new DavStatus(403, errorBody('propfind-finite-depth'));
  const folder = t.kind === 'folder' ? t.path : '';
  const locks = await davOps.locksAround(ctx, t.kind === 'folder' ? folder : t.path);
  async function* body() {
    yield MULTISTATUS_OPEN;
    const own = t.kind === 'file' ? await davOps.props(ctx, [t.info.id]) : new Map<string, DeadProp[]>();
    const sums = asksForChecksums(req);
    yield entryXml(
      mount,
      t,
      req,
      locks,
      t.kind === 'file' ? (own.get(t.info.id) ?? []) : [],
      sums && t.kind === 'file' ? await davOps.digests(ctx, [t.info]) : undefined,
    );
    if (t.kind === 'folder' && depth === '1') {
      let cursor: string | null = null;
      let first = true;
      do {
        const page: Awaited<ReturnType<typeof davOps.listFolder>> = await davOps.listFolder(ctx, { folder, cursor, limit: PAGE });
        if (first) for (const d of page.folders) yield entryXml(mount, { kind: 'folder', path: d.path, folder: d }, req, locks, []);
        first = false;
        const dead = await davOps.props(
          ctx,
          page.files.map((f) => f.id),
        );
        const digests = sums ? await davOps.digests(ctx, page.files) : undefined;
        for (const f of page.files) yield entryXml(mount, { kind: 'file', path: f.path, info: f }, req, locks, dead.get(f.id) ?? [], digests);
        cursor = page.nextCursor;
      } while (cursor);
    }
    yield MULTISTATUS_CLOSE;
  }
  return reply.code(207).type(XML_TYPE).send(Readable.from(body()));
}

/** PROPPATCH: all or nothing (RFC 4918 §9.2); dead properties on files, getlastmodified settable. */
export async function proppatch(ctx: Ctx, mount: string, t: Target, root: XElement | null, reply: FastifyReply) {
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
    await davOps.patchProps(ctx, t.path, changes);
    if (modified) await davOps.setModified(ctx, t.path, modified);
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
