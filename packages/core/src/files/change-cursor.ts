import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { purposeKey } from './file-links.js';

/**
 * The change feed's cursors are opaque (issue 27): its positions are one sequence shared by every project, so
 * plain numbers would tell a reader how much happened elsewhere between two of its answers — and, passed back
 * as made-up numbers, where its own changes sit in that sequence. A cursor is the position and a tag of its
 * project enciphered as one AES block under a key of the installation: the same position always reads the same,
 * nothing can be learnt from it, and one not made by this feed for this project is refused.
 */
const BLOCK = 16;

function tagOf(key: Buffer, projectId: string): Buffer {
  return createHmac('sha256', key).update(projectId).digest().subarray(0, 8);
}

/**
 * The opaque cursor of position `seq` in the project's feed. Another paged answer (search) passes its own
 * `purpose`: its cursors are then refused by the feed, and the feed's by it.
 */
export async function encodeCursor(ctx: Ctx, seq: number, purpose = 'change-cursor'): Promise<string> {
  const key = await purposeKey(ctx.platform, purpose);
  const block = Buffer.alloc(BLOCK);
  block.writeBigUInt64BE(BigInt(seq), 0);
  tagOf(key, ctx.project.id).copy(block, 8);
  const c = createCipheriv('aes-256-ecb', key, null).setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]).toString('base64url');
}

/** The position an opaque cursor stands for; `bad_request` for one this feed did not give in this project. */
export async function decodeCursor(ctx: Ctx, cursor: string, purpose = 'change-cursor'): Promise<number> {
  const bad = () => new StoaError('bad_request', 'cursor is not one this feed gave: pass the cursor of an earlier answer');
  const raw = /^[A-Za-z0-9_-]{22}$/.test(cursor) ? Buffer.from(cursor, 'base64url') : null;
  if (raw?.length !== BLOCK) throw bad();
  const key = await purposeKey(ctx.platform, purpose);
  const d = createDecipheriv('aes-256-ecb', key, null).setAutoPadding(false);
  const block = Buffer.concat([d.update(raw), d.final()]);
  if (!block.subarray(8).equals(tagOf(key, ctx.project.id))) throw bad();
  const seq = block.readBigUInt64BE(0);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER)) throw bad();
  return Number(seq);
}

/**
 * A sealed cursor for keyset pages (a folder listing's last name and ID): enciphered and authenticated under the
 * key of `purpose` and bound to the project and `scope` (the folder), so it tells nothing of the rows and one made
 * for another folder, project or purpose, or made up, is refused — the same promise as the feed's cursors above.
 */
export async function sealCursor(ctx: Ctx, purpose: string, scope: string, parts: string[]): Promise<string> {
  const key = await purposeKey(ctx.platform, purpose);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(`${ctx.project.id}\u0000${scope}`));
  const body = Buffer.concat([c.update(JSON.stringify(parts), 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

/** The parts a sealed cursor holds; `bad_request` for one not sealed for this purpose, project and scope. */
export async function openCursor(ctx: Ctx, purpose: string, scope: string, cursor: string): Promise<string[]> {
  const bad = () => new StoaError('bad_request', 'cursor is not one this listing gave: pass the nextCursor of an earlier answer');
  const raw = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url') : null;
  if (!raw || raw.length < 29) throw bad();
  const key = await purposeKey(ctx.platform, purpose);
  try {
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(Buffer.from(`${ctx.project.id}\u0000${scope}`));
    d.setAuthTag(raw.subarray(12, 28));
    const parts: unknown = JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8'));
    if (Array.isArray(parts) && parts.every((p) => typeof p === 'string')) return parts as string[];
  } catch {
    // A wrong tag or a body that is not ours: refused below like any other.
  }
  throw bad();
}
