import { Readable } from 'node:stream';
import { StoaError } from '@stoa/contract';
import { BlobTooLargeError, readHead, type PutResult } from '@stoa/blob';
import { attributionOf, type Attribution } from '../actors.js';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { quotaOf } from '../projects/projects.js';
import { commitVersion } from './commit-version.js';
import { mimeByName, mimeForBlob, mimeForContent } from './mime.js';
import type { FileInfo } from './file-info.js';
import { withWriteRetry } from './write-retry.js';
import { hotQuery } from '../hot-query.js';
import { agentWriteCap, countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { assertUnlockedIn } from './locks.js';

export { INDEX_TEXT_BYTES } from './commit-version.js';

/** Uploads up to this size whose type only their bytes can tell are read whole before they are stored (the fs blob store reads this much whole too). */
const SMALL_UPLOAD_BYTES = 256 * 1024;

export interface PutFileInput {
  path: string;
  source: Readable | Buffer | string;
  /** 'replace' (default) creates or replaces; 'create' fails with already_exists if the file exists. */
  mode?: 'create' | 'replace';
  expectedVersion?: number | null;
  /** Extra cap on the size (e.g. the agent write limit); exceeding it gives too_large. */
  maxBytes?: number;
  permissions?: string;
  attribution?: Attribution;
  /** MIME type to store; by extension when absent (A4). */
  mime?: string;
  auditAction?: string | null;
  /** Metadata stored with the new version (checked by `fileMetadata`); a version written without it has none. */
  metadata?: Record<string, string> | null;
  /** Aborted when the sender went away before the write was answered: then nothing is kept (see RawInput). */
  signal?: AbortSignal;
}

/** Built once: every write asks it (issue 30). */
const spaceQuery = hotQuery((db, a: { project: string; path: string }) =>
  db
    .selectFrom('projects')
    .select(['used_bytes', 'reserved_bytes'])
    .select((eb) => eb.selectFrom('files').select('size').where('project_id', '=', a.project).where('path', '=', a.path).as('existing_size'))
    .where('id', '=', a.project),
);

/**
 * The project's free space and the size of the file now at `path` (null: none), in one statement: what a write
 * may use is the free space plus what it replaces.
 */
async function spaceFor(ctx: Ctx, path: string): Promise<{ free: number; existingSize: number | null }> {
  const [p] = await spaceQuery(ctx.platform.db.kysely, { project: ctx.project.id, path });
  if (!p) throw new StoaError('not_found', 'this project does not exist');
  const free = Math.max(0, quotaOf(ctx.platform, ctx.project) - Number(p.used_bytes) - Number(p.reserved_bytes));
  return { free, existingSize: p.existing_size === null ? null : Number(p.existing_size) };
}

/**
 * Stores a file: streams the bytes into a content-addressed blob (never the whole file in memory), then commits
 * the new version in one transaction. A refusal leaves nothing behind but an unreferenced blob, which the
 * sweeper collects.
 *
 * @example
 * await putFile(ctx, { path: 'reports/2026/summary.md', source: '# Summary' });
 */
export async function putFile(ctx: Ctx, input: PutFileInput): Promise<PutFileResult> {
  return tracedChange(
    ctx,
    'file.write',
    { path: input.path },
    (c) => writeFile(c, input),
    (r) => ({
      path: r.file.path,
      version: r.file.version,
      text: `${r.created ? 'Created' : 'Wrote'} ${r.file.path} (${r.file.size} bytes); version ${r.file.version}`,
    }),
  );
}

export type PutFileResult = { file: FileInfo; created: boolean; previousVersion: number | null };

async function writeFile(ctx: Ctx, input: PutFileInput): Promise<PutFileResult> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  if (input.expectedVersion !== undefined && input.expectedVersion !== null && (!Number.isInteger(input.expectedVersion) || input.expectedVersion < 0)) {
    throw new StoaError('bad_request', 'expected version must be a non-negative integer');
  }
  const { free, existingSize } = await spaceFor(ctx, path);
  if (existingSize !== null && input.mode === 'create') throw new StoaError('already_exists', `file "${path}" already exists`);
  const quotaCap = free + (existingSize ?? 0);
  // An agent's writes are capped at STOA_AGENT_WRITE_BYTES whatever door they come through.
  const own = [input.maxBytes, agentWriteCap(ctx)].filter((n): n is number => n !== undefined);
  const ownCap = own.length ? Math.min(...own) : undefined;
  const cap = ownCap !== undefined ? Math.min(ownCap, quotaCap) : quotaCap;
  const ownLimit = ownCap !== undefined && ownCap <= quotaCap ? ownCap : undefined;
  // A type the name cannot tell comes from the first bytes: a small upload is read whole here and its type taken
  // from the bytes in memory, instead of opening the stored blob again to read them back (issue 30).
  let source = input.source;
  let mime = input.mime ?? mimeByName(path);
  if (mime === undefined && source instanceof Readable) {
    const stream = source;
    const head = await refusingOversize(() => readHead(stream, SMALL_UPLOAD_BYTES, cap), cap, ownLimit);
    source = head.whole ?? head.rest;
    if (head.whole) mime = mimeForContent(path, head.whole);
  } else if (mime === undefined) {
    const bytes = typeof source === 'string' ? Buffer.from(source, 'utf8') : (source as Buffer);
    source = bytes;
    mime = mimeForContent(path, bytes);
  }
  const blob = await storeBlob(ctx, source, cap, ownLimit);
  mime ??= await mimeForBlob(ctx.platform.blobs, path, blob.key, blob.size);
  const attribution = input.attribution ?? attributionOf(ctx.actor);
  const senderGone = () => {
    if (input.signal?.aborted) throw new StoaError('unavailable', 'the upload was cancelled by its sender before it was kept; nothing was stored');
  };
  senderGone();
  return withWriteRetry(() =>
    inTx(ctx.platform, async (trx) => {
      // Checked again in the transaction: the bytes may have taken a while to reach the store.
      senderGone();
      await assertUnlockedIn(trx, ctx, [{ path, member: true }]);
      await countAgentChange(trx, ctx);
      return commitVersion(trx, ctx, {
        path,
        blob,
        mime,
        attribution,
        mode: input.mode ?? 'replace',
        expectedVersion: input.expectedVersion,
        permissions: input.permissions,
        auditAction: input.auditAction,
        metadata: input.metadata ?? null,
      });
    }),
  );
}

/**
 * Streams bytes into the blob store under a cap. Over the cap: too_large when the cap is the caller's own
 * limit, quota_exceeded when it is the free space.
 */
export async function storeBlob(ctx: Ctx, source: Readable | Buffer | string, cap: number, ownLimit?: number): Promise<PutResult> {
  return refusingOversize(() => ctx.platform.blobs.put(source, { maxBytes: cap }), cap, ownLimit);
}

/** Runs a step that reads the upload under `cap`, with storeBlob's refusals when the bytes exceed it. */
async function refusingOversize<T>(step: () => Promise<T>, cap: number, ownLimit?: number): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof BlobTooLargeError) {
      if (ownLimit !== undefined && ownLimit <= cap)
        throw new StoaError('too_large', `content is larger than the limit of ${ownLimit} bytes`, { limit: ownLimit });
      throw new StoaError('quota_exceeded', `not enough storage space: ${cap} bytes are free`, { free: cap });
    }
    throw e;
  }
}
