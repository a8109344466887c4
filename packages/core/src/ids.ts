import { randomBytes, randomInt } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random letters and digits. */
export function randomAlnum(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

/**
 * Opaque prefixed IDs (§0). Agents get exactly 8 letters/digits after `agt_`.
 *
 * @example
 * newId('agt') // 'agt_a3B9kLm2'
 */
export function newId(prefix: 'org' | 'prj' | 'usr' | 'agt' | 'conv' | 'fil' | 'ver' | 'tok' | 'upl' | 'pg' | 'mem' | 'call' | string): string {
  return `${prefix}_${randomAlnum(prefix === 'agt' ? 8 : 16)}`;
}

/**
 * The time's width in an ordered ID. Base 36 uses digits and lowercase letters only, so a zero-padded number sorts
 * as the number does, byte-wise and in any collation.
 */
const BASE36_TIME_CHARS = 9;

/**
 * An opaque prefixed ID like {@link newId}'s (16 characters after the prefix) whose first 9 characters are the
 * time in milliseconds (base 36, zero-padded; enough until the year 5138) and the other 7 random letters and digits
 * (62^7 ≈ 3.5 × 10^12 a millisecond). For the rows every write adds — files and their versions, wiki pages and
 * their versions, the trace's tool calls: an index on a random key takes each new row into a leaf page of its own,
 * which the commit then writes whole; ordered by time, the rows of one moment share the last page (bench/README.md,
 * "Files and versions keyed in time order"; docs/decisions/0041-time-ordered-file-and-version-ids.md). Not for
 * anything whose ID is a secret or a capability.
 *
 * @example
 * newOrderedId('ver') // 'ver_mia3k8t2hQ7xK2p'
 */
export function newOrderedId(prefix: 'fil' | 'ver' | 'wpg' | 'wv' | 'call', nowMs: number = Date.now()): string {
  return `${prefix}_${Math.floor(nowMs).toString(36).padStart(BASE36_TIME_CHARS, '0')}${randomAlnum(7)}`;
}

/** A bearer token: `stoa_` + 40 random base62-ish characters (shown once, stored hashed). */
export function newToken(): string {
  return 'stoa_' + randomBytes(30).toString('base64url');
}
