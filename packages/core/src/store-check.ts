import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { Platform } from './platform.js';
import { inlineBlobBytesOf } from './config.js';

/**
 * Checks, before a server says it is listening, that the database answers and that the blob store takes a
 * write, gives the bytes back and deletes them (a probe object of random bytes nothing else can share), so a
 * wrong S3 key, bucket or endpoint stops the start with the store's own reason instead of answering every
 * upload with a 500 later (issue 32).
 *
 * @example
 * await checkStores(platform); // throws StoaError('unavailable', 'object storage refused …: <its reason>')
 */
export async function checkStores(platform: Platform): Promise<void> {
  try {
    await sql`select 1`.execute(platform.db.kysely);
  } catch (e) {
    throw new StoaError('unavailable', `the database does not answer: ${reasonOf(e)}`);
  }
  const where = platform.config.storage.kind === 'fs' ? 'the local blob folder' : 'object storage';
  // Larger than the blobs kept in the database (decision 0021), so the probe reaches the blob store itself.
  const probe = Buffer.concat([Buffer.from('stoa start-up probe '), randomBytes(Math.max(16, inlineBlobBytesOf(platform.config) + 1))]);
  let step = 'a write';
  try {
    const { key } = await platform.blobs.put(probe);
    step = 'a read';
    const back = await platform.blobs.read(key);
    if (!back.equals(probe)) throw new Error('the bytes read back differ from the bytes written');
    step = 'a delete';
    await platform.blobs.delete(key);
  } catch (e) {
    throw new StoaError('unavailable', `${where} refused ${step} of a probe object: ${reasonOf(e)}`);
  }
}

/** The store's own words: the error's code and message, and those of its causes (the S3 client's answer). */
function reasonOf(e: unknown): string {
  const parts: string[] = [];
  for (let err = e as Cause | undefined, depth = 0; err && depth < 4; err = err.cause as Cause | undefined, depth++) {
    const code = err.Code ?? (err.name && !/^(Error|BlobStorageError)$/.test(err.name) ? err.name : undefined);
    const status = err.$metadata?.httpStatusCode;
    parts.push([code, err.message ?? String(err), status ? `(HTTP ${status})` : ''].filter(Boolean).join(' ').trim());
  }
  const all = parts.join(': ');
  // A HEAD request's refusal has no body, so the S3 client can only say "Unknown": name the usual cause.
  if (/\(HTTP 40[13]\)/.test(all))
    return `${all} — the store refused these credentials or this bucket (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and STOA_STORAGE_URL)`;
  return all;
}

interface Cause {
  name?: string;
  message?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}
