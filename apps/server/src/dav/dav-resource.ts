import { StoaError } from '@stoa/contract';
import { lockCovers, type Ctx, type FileInfo, type FolderEntry } from '@stoa/core';
import { davOps } from './dav-ops.js';
import type { ResourceState } from './conditions.js';

/** The media type of every XML answer of the WebDAV door. */
export const XML_TYPE = 'application/xml; charset=utf-8';
/** Entries read from the core per page when a listing streams (PROPFIND, folder copies). */
export const PAGE = 1000;

/** What a WebDAV path names: a file, a folder, or nothing yet. */
export type Target = { kind: 'file'; path: string; info: FileInfo } | { kind: 'folder'; path: string; folder: FolderEntry } | { kind: 'none'; path: string };

/** What is at a path, through core operations only. */
export async function resolve(ctx: Ctx, path: string): Promise<Target> {
  if (path !== '') {
    try {
      return { kind: 'file', path, info: await davOps.statFile(ctx, path) };
    } catch (e) {
      if (!(e instanceof StoaError) || e.code !== 'not_found') throw e;
    }
  }
  const folder = await davOps.statFolder(ctx, path);
  return folder ? { kind: 'folder', path, folder } : { kind: 'none', path };
}

/** What the If header and the preconditions compare: existence, ETag, modification time, locks held. */
export async function stateOf(ctx: Ctx, t: Target): Promise<ResourceState> {
  const locks = t.kind === 'none' && t.path === '' ? [] : await davOps.locksAround(ctx, t.path);
  return {
    exists: t.kind !== 'none',
    sha256: t.kind === 'file' ? t.info.sha256 : null,
    modified: t.kind === 'file' ? new Date(t.info.modified) : null,
    lockTokens: locks.filter((l) => lockCovers(l, t.path)).map((l) => l.token),
  };
}

/** A precondition answer; `body` names the RFC 4918 condition when there is one. */
export class DavStatus extends Error {
  constructor(
    readonly status: number,
    readonly body?: string,
  ) {
    super(`status ${status}`);
  }
}
