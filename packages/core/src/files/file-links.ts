import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import type { Ctx, Platform } from '../platform.js';
import { liveProjectById } from '../projects/projects.js';
import { assertAgentReadSize } from '../operations/agent-gate.js';
import { statFile, storedVersion } from './read-file.js';
import { toFileInfo, type FileInfo } from './file-info.js';

/** How long a resolved link stays openable unless asked otherwise, and at most (seconds). */
const LINK_DEFAULT_SECONDS = 900;
const LINK_MAX_SECONDS = 24 * 3600;

/** What `resolveFile` answers: the file's metadata and an expiring URL that opens that version's bytes — never the bytes. */
export interface ResolvedFile {
  file: FileInfo;
  /** The version the URL opens (the current one unless another was asked for). */
  version: number;
  /** Absolute on object storage or with STOA_PUBLIC_URL; otherwise below this server (`/api/v1/files/signed/…`). */
  url: string;
  expiresAt: string;
}

/**
 * Resolves a file by path or by its stable ID (which follows renames and moves) to its metadata and an openable,
 * expiring URL (R5 `resolveFile`). On object storage the URL is a presigned GET of the blob; on the local disk it
 * is a link the server signs with the installation's key, naming the project, file and version. The caller needs
 * read access, and an agent's read limit applies to the size as to any read.
 *
 * @example
 * const r = await resolveFile(ctx, { path: 'reports/q3.pdf', expiresIn: 300 }); // { file, version: 4, url: '/api/v1/files/signed/…', expiresAt }
 */
export async function resolveFile(ctx: Ctx, input: { path?: string; id?: string; version?: number; expiresIn?: number }): Promise<ResolvedFile> {
  const seconds = input.expiresIn ?? LINK_DEFAULT_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > LINK_MAX_SECONDS)
    throw new StoaError('bad_request', `expiresIn must be 1–${LINK_MAX_SECONDS} seconds`);
  if (!input.path === !input.id) throw new StoaError('bad_request', 'give the path or the id of the file');
  let path = input.path;
  if (input.id) {
    const row = await ctx.platform.db.kysely
      .selectFrom('files')
      .select('path')
      .where('project_id', '=', ctx.project.id)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw new StoaError('not_found', `no file has the id "${input.id}"`);
    path = row.path;
  }
  const file = await statFile(ctx, path!);
  const version = input.version ?? file.version;
  const stored = await storedVersion(ctx.platform, file, version);
  if (!stored) throw new StoaError('not_found', `version ${version} of "${file.path}" does not exist`);
  assertAgentReadSize(ctx, file.path, stored.size);
  const expires = new Date(ctx.platform.clock().getTime() + seconds * 1000);
  const presigned = await ctx.platform.blobs.presignGet(stored.blobKey, seconds, { filename: file.name, contentType: file.type });
  const url =
    presigned ??
    `${ctx.platform.config.publicUrl ?? ''}/api/v1/files/signed/${await sign(ctx.platform, { p: ctx.project.id, f: file.id, v: version, e: Math.floor(expires.getTime() / 1000) })}`;
  return { file, version, url, expiresAt: expires.toISOString() };
}

/** The bytes behind a signed link, with what the door needs to serve them as a download. */
interface SignedContent {
  info: FileInfo;
  version: number;
  size: number;
  sha256: string;
  stream: Readable;
}

/**
 * Opens the bytes a link from `resolveFile` names, without a token: the signature is the credential. A link that
 * was altered, has expired, or names a file, version or project that is gone answers as the API would
 * (`unauthorized` for a bad or expired link, `not_found` for what is gone) and never says which part failed.
 *
 * @example
 * const c = await openSignedLink(platform, token); // c.stream, c.info.name
 */
export async function openSignedLink(platform: Platform, token: string): Promise<SignedContent> {
  const claims = await verify(platform, token);
  if (!claims || claims.e * 1000 <= platform.clock().getTime())
    throw new StoaError('unauthorized', 'this link is not valid or has expired; resolve the file again');
  const project = await liveProjectById(platform, claims.p);
  const row = project
    ? await platform.db.kysely.selectFrom('files').selectAll().where('project_id', '=', project.id).where('id', '=', claims.f).executeTakeFirst()
    : undefined;
  if (!row) throw new StoaError('not_found', 'the file of this link no longer exists');
  const info = toFileInfo(row);
  const stored = await storedVersion(platform, info, claims.v);
  if (!stored) throw new StoaError('not_found', 'the version of this link no longer exists');
  return { info, version: claims.v, size: stored.size, sha256: stored.sha256, stream: await platform.blobs.get(stored.blobKey) };
}

interface LinkClaims {
  /** project id */
  p: string;
  /** file id */
  f: string;
  /** version */
  v: number;
  /** expiry, Unix seconds */
  e: number;
}

const SECRET_NAME = 'file-links';

/** The link key of each open platform: it never changes once made, so one read per process. */
const linkKeys = new WeakMap<Platform, Promise<Buffer>>();

/** The installation's link key: made once (by whichever server needs it first) and shared through the database. */
function linkKey(platform: Platform): Promise<Buffer> {
  let key = linkKeys.get(platform);
  if (!key) {
    key = readOrMakeLinkKey(platform);
    linkKeys.set(platform, key);
    key.catch(() => linkKeys.delete(platform));
  }
  return key;
}

/**
 * A key of its own for `purpose`, derived from the installation's link key, so one secret serves several uses
 * without one use's outputs helping against another's.
 *
 * @example
 * const k = await purposeKey(platform, 'change-cursor'); // 32 bytes
 */
export async function purposeKey(platform: Platform, purpose: string): Promise<Buffer> {
  return createHmac('sha256', await linkKey(platform))
    .update(`stoa:${purpose}`)
    .digest();
}

async function readOrMakeLinkKey(platform: Platform): Promise<Buffer> {
  const db = platform.db.kysely;
  await db
    .insertInto('installation_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64'), created_at: platform.clock().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('installation_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

async function sign(platform: Platform, claims: LinkClaims): Promise<string> {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${createHmac('sha256', await linkKey(platform))
    .update(body)
    .digest('base64url')}`;
}

async function verify(platform: Platform, token: string): Promise<LinkClaims | null> {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || body.length > 2000) return null;
  // Compared as text: a second spelling of the same bytes (base64url's unused trailing bits) is not the signature.
  const expected = Buffer.from(
    createHmac('sha256', await linkKey(platform))
      .update(body)
      .digest('base64url'),
  );
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
    return typeof c.p === 'string' && typeof c.f === 'string' && Number.isInteger(c.v) && Number.isInteger(c.e) ? c : null;
  } catch {
    return null;
  }
}
