import { StoaError } from '@stoa/contract';
import { LOCK_NULL_METADATA, type Ctx, type WriteLock } from '@stoa/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIfHeader, submittedTokens } from './conditions.js';
import { davOps } from './dav-ops.js';
import { lockActive } from './dav-props.js';
import { XML_TYPE, type Target } from './dav-resource.js';
import { DAV, child, davDocument, davEl, valueXml, type XElement } from './xml.js';

// LOCK of the WebDAV door (RFC 4918 §9.10): new locks, refreshes, and locks on unmapped URLs.

/** The time-out asked for; the core grants at most its cap (STOA_LOCK_MAX_SECONDS), "Infinite" included. */
function timeoutSeconds(h: string | undefined): number | undefined {
  const first = (h ?? '').split(',')[0]!.trim();
  if (/^Infinite$/i.test(first)) return Number.POSITIVE_INFINITY;
  const m = /^Second-(\d+)$/i.exec(first);
  return m ? Number(m[1]) : undefined;
}

/** LOCK: a new lock from a DAV:lockinfo body, or without a body a refresh of the locks named in the If header. */
export async function lock(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, mount: string, t: Target, root: XElement | null) {
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
    const locks = await davOps.refreshLocks(ctx, { path: t.path, tokens, timeoutSeconds: timeout });
    return reply.code(200).type(XML_TYPE).send(discovery(locks));
  }
  const info = root.ns === DAV && root.name === 'lockinfo' ? root : null;
  if (!info) throw new StoaError('bad_request', 'LOCK body must be a DAV:lockinfo element');
  const scope = child(child(info, 'lockscope'), 'shared') ? 'shared' : 'exclusive';
  const owner = child(info, 'owner');
  const depth = String(req.headers.depth ?? 'infinity') === '0' || t.kind === 'file' ? '0' : 'infinity';
  let created = false;
  if (t.kind === 'none') {
    // A lock on an unmapped URL makes an empty file (RFC 4918 §7.3), after checking nobody holds a lock there;
    // marked, so the PUT that follows fills it as version 1 instead of adding a second.
    await davOps.checkLocks(ctx, [{ path: t.path, member: true }], []);
    await davOps.put(ctx, t.path, '', { create: true, metadata: LOCK_NULL_METADATA });
    created = true;
  }
  const l = await davOps.lock(ctx, {
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
