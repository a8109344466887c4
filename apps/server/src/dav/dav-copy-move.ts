import { StoaError } from '@stoa/contract';
import { normalizePath, type Ctx, type FolderEntry } from '@stoa/core';
import type { FastifyRequest } from 'fastify';
import { parseIfHeader, submittedTokens } from './conditions.js';
import { destinationPath } from './dav-paths.js';
import { davOps } from './dav-ops.js';
import { DavStatus, PAGE, resolve, type Target } from './dav-resource.js';

// COPY and MOVE of the WebDAV door (RFC 4918 §9.8–9.9), where Stoa never drops a file to make room.

/** Whether a folder holds nothing: replacing it loses nothing. */
async function isEmptyFolder(ctx: Ctx, f: FolderEntry): Promise<boolean> {
  if (f.fileCount > 0) return false;
  return (await davOps.listFolder(ctx, { folder: f.path, limit: 1 })).folders.length === 0;
}

/**
 * Folder onto an existing folder with Overwrite: T. RFC 4918 would delete the target first; Stoa never drops
 * files, so the trees merge: a file at the same path gets the source's content as a new version (history
 * kept), files only at the target stay.
 */
async function mergeFolder(ctx: Ctx, from: string, to: string, move: boolean): Promise<void> {
  // Subfolders first, so empty ones arrive too.
  for (const d of (await davOps.folderTree(ctx)).filter((x) => x.path.startsWith(from + '/'))) {
    const dest = to + d.path.slice(from.length);
    if ((await resolve(ctx, dest)).kind === 'none') await davOps.createFolder(ctx, dest);
  }
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof davOps.listFilesRecursive>> = await davOps.listFilesRecursive(ctx, { prefix: from, cursor, limit: PAGE });
    for (const f of page.files) {
      const dest = to + f.path.slice(from.length);
      if (!move) await davOps.copyFile(ctx, f.path, dest);
      else if ((await resolve(ctx, dest)).kind === 'file') await davOps.moveOver(ctx, f.path, dest);
      else await davOps.moveFile(ctx, f.path, dest);
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (move) await davOps.deleteFolder(ctx, from, true);
}

/** COPY or MOVE of `src` to the request's Destination; the status to answer (201 created, 204 replaced). */
export async function copyOrMove(ctx: Ctx, req: FastifyRequest, mount: string, src: Target, move: boolean): Promise<number> {
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
  await davOps.checkLocks(ctx, [...(move ? [{ path: src.path, member: true, subtree: true }] : []), { path: to, member: true, subtree: true }], tokens);
  if (target.kind === 'folder' && (await isEmptyFolder(ctx, target.folder))) {
    await davOps.deleteFolder(ctx, to, false);
  } else if (target.kind === 'folder' && src.kind === 'folder') {
    await mergeFolder(ctx, src.path, to, move);
    return 204;
  } else if (target.kind !== 'none' && src.kind !== target.kind) {
    throw new StoaError('already_exists', `"${to}" is a ${target.kind} with content; it is never replaced by a ${src.kind}`);
  }
  const replaced = target.kind !== 'none';
  if (src.kind === 'file') {
    if (!move) await davOps.copyFile(ctx, src.path, to);
    else if (target.kind === 'file') await davOps.moveOver(ctx, src.path, to);
    else await davOps.moveFile(ctx, src.path, to);
  } else if (move) {
    await davOps.moveFolder(ctx, src.path, to);
  } else {
    await davOps.createFolder(ctx, to);
    if (String(req.headers.depth ?? 'infinity') !== '0') await mergeFolder(ctx, src.path, to, false);
  }
  return replaced ? 204 : 201;
}
