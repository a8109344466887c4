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

/** A bearer token: `stoa_` + 40 random base62-ish characters (shown once, stored hashed). */
export function newToken(): string {
  return 'stoa_' + randomBytes(30).toString('base64url');
}
