import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import type { Ctx, Platform } from '../platform.js';
import { inTx } from '../platform.js';
import { newId } from '../ids.js';
import { recordAudit } from '../audit/audit.js';
import { assertCan } from '../policies/can.js';
import { contextFor } from '../context.js';
import { liveProjectById } from '../projects/projects.js';
import { statFile, storedVersion } from './read-file.js';
import { toFileInfo, type FileInfo } from './file-info.js';

/** A share link as its maker's project sees it (the URL only once, at creation). */
interface ShareLink {
  id: string;
  path: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Why a link no longer opens: the page the holder sees says which (they hold the secret, so nothing leaks). */
type ShareRefusal = 'unknown' | 'expired' | 'revoked' | 'gone';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The person a link is made or revoked by; agents never publish the project's files outside it. */
function personOf(ctx: Ctx): { userId: string; name: string } {
  if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'only people may share links; an agent may not');
  return { userId: ctx.actor.userId, name: ctx.actor.name };
}

/**
 * Makes an expiring link that downloads a file without an account (issue 31). Only people who may change the file
 * (editors and admins) may publish it this way; the link follows the file through renames and moves, opens its
 * current version, and stops opening when it expires, is revoked, the file is deleted, or its maker may no longer
 * read the file. Only the SHA-256 of the link's secret is stored.
 *
 * @example
 * const l = await createShareLink(ctx, { path: 'reports/q1.pdf', expiresIn: 86400 }); // { url: '/api/v1/share-links/…', expiresAt, … }
 */
export async function createShareLink(ctx: Ctx, input: { path: string; expiresIn: number }): Promise<ShareLink & { url: string }> {
  const person = personOf(ctx);
  const file = await statFile(ctx, input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: file.path });
  const token = randomBytes(32).toString('base64url');
  const now = ctx.platform.clock();
  const row = {
    id: newId('shr'),
    project_id: ctx.project.id,
    file_id: file.id,
    token_hash: hashOf(token),
    created_by: person.userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + input.expiresIn * 1000).toISOString(),
    revoked_at: null,
  };
  await inTx(ctx.platform, async (trx) => {
    await trx.insertInto('share_links').values(row).execute();
    await recordAudit(trx, ctx, { action: 'share.create', path: file.path, details: { link: row.id, expiresAt: row.expires_at } });
  });
  return {
    id: row.id,
    path: file.path,
    createdBy: person.name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    url: `${ctx.platform.config.publicUrl ?? ''}/api/v1/share-links/${token}`,
  };
}

/**
 * The links of a file that still open (neither expired nor revoked), newest first; who may read the file sees them.
 *
 * @example
 * await listShareLinks(ctx, { path: 'reports/q1.pdf' }) // [{ id: 'shr_…', expiresAt, createdBy: 'ann', … }]
 */
export async function listShareLinks(ctx: Ctx, input: { path: string }): Promise<ShareLink[]> {
  const file = await statFile(ctx, input.path);
  const rows = await ctx.platform.db.kysely
    .selectFrom('share_links as s')
    .leftJoin('users as u', 'u.id', 's.created_by')
    .select(['s.id', 's.created_at', 's.expires_at', 'u.name'])
    .where('s.project_id', '=', ctx.project.id)
    .where('s.file_id', '=', file.id)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', ctx.platform.clock().toISOString())
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ id: r.id, path: file.path, createdBy: r.name ?? '', createdAt: r.created_at, expiresAt: r.expires_at }));
}

/**
 * Revokes a link: it stops opening at once. Editors and admins may revoke any link of a file they may change.
 *
 * @example
 * await revokeShareLink(ctx, { id: 'shr_a3B9kLm2' }) // { ok: true }
 */
export async function revokeShareLink(ctx: Ctx, input: { id: string }): Promise<{ ok: true }> {
  personOf(ctx);
  const row = await ctx.platform.db.kysely
    .selectFrom('share_links as s')
    .innerJoin('files as f', (j) => j.onRef('f.id', '=', 's.file_id').onRef('f.project_id', '=', 's.project_id'))
    .select(['s.id', 's.revoked_at', 'f.path'])
    .where('s.project_id', '=', ctx.project.id)
    .where('s.id', '=', input.id)
    .executeTakeFirst();
  if (!row) throw new StoaError('not_found', `no share link "${input.id}" in this project`);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: row.path });
  if (row.revoked_at) return { ok: true };
  await inTx(ctx.platform, async (trx) => {
    await trx
      .updateTable('share_links')
      .set({ revoked_at: ctx.platform.clock().toISOString() })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .execute();
    await recordAudit(trx, ctx, { action: 'share.revoke', path: row.path, details: { link: row.id } });
  });
  return { ok: true };
}

/** The bytes behind a share link, with what the door needs to serve them as a download. */
interface SharedContent {
  info: FileInfo;
  version: number;
  size: number;
  sha256: string;
  stream: Readable;
}

const refuse = (reason: ShareRefusal, message: string): StoaError =>
  new StoaError(reason === 'unknown' || reason === 'gone' ? 'not_found' : 'unauthorized', message, { reason });

/**
 * Opens the file behind a share link, without a token: the link's secret is the credential. Refused (with the
 * reason in `details.reason`: unknown, expired, revoked, gone) when the link is not one, has expired or was
 * revoked, or when the file, its project or its maker's right to read it is gone.
 *
 * @example
 * const c = await openShareLink(platform, token); // c.stream, c.info.name
 */
export async function openShareLink(platform: Platform, token: string): Promise<SharedContent> {
  const row = await platform.db.kysely.selectFrom('share_links').selectAll().where('token_hash', '=', hashOf(token)).executeTakeFirst();
  if (!row) throw refuse('unknown', 'this share link does not exist');
  if (row.revoked_at) throw refuse('revoked', 'this share link was revoked');
  if (row.expires_at <= platform.clock().toISOString()) throw refuse('expired', 'this share link has expired');
  const project = await liveProjectById(platform, row.project_id);
  const file = project
    ? await platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', project.id).where('id', '=', row.file_id).executeTakeFirst()
    : undefined;
  if (!file) throw refuse('gone', 'the file of this share link no longer exists');
  const user = await platform.db.kysely.selectFrom('users').select(['id', 'name']).where('id', '=', row.created_by).executeTakeFirst();
  // The link lends its maker's reading right: a maker who left the project (or lost the folder) shares nothing.
  const maker = user
    ? await contextFor(platform, { kind: 'user', userId: user.id, name: user.name, superuser: false }, { project: row.project_id }).catch(() => null)
    : null;
  if (!maker) throw refuse('gone', 'the file of this share link is no longer shared');
  try {
    await statFile(maker, file.path);
  } catch {
    throw refuse('gone', 'the file of this share link is no longer shared');
  }
  const info = toFileInfo(file);
  const stored = await storedVersion(platform, info, info.version);
  if (!stored) throw refuse('gone', 'the file of this share link no longer exists');
  return { info, version: info.version, size: stored.size, sha256: stored.sha256, stream: await platform.blobs.get(stored.blobKey) };
}
