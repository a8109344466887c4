import { randomUUID } from 'node:crypto';
import { StoaError } from '@stoa/contract';
import { defaultAuthLimits } from '../config.js';
import type { Platform } from '../platform.js';

interface Window {
  failures: number;
  resetsAt: number;
}

/** Failure windows per client address, one table per platform (so tests and servers never share counts). */
const tables = new WeakMap<Platform, Map<string, Window>>();
/** Past this many addresses, expired windows are dropped before a new one is added (bounded memory). */
const PRUNE_AT = 10_000;

function tableOf(platform: Platform): Map<string, Window> {
  let t = tables.get(platform);
  if (!t) {
    t = new Map();
    tables.set(platform, t);
  }
  return t;
}

/**
 * Refuses a client address that has used up its failed attempts (tokens, login codes, invitation codes) in the
 * current window: `rate_limited` (HTTP 429) with `retryAfter` seconds. Each process counts in memory, and servers
 * sharing a database tell each other their failures (`shareAuthFailures`); the window is short, so a restart
 * forgets little. A missing address (in-process callers) is never throttled.
 */
export function assertNotThrottled(platform: Platform, client: string | undefined): void {
  if (!client) return;
  const w = tableOf(platform).get(client);
  const now = platform.clock().getTime();
  const limits = platform.config.auth ?? defaultAuthLimits;
  if (!w || w.resetsAt <= now || w.failures < limits.failures) return;
  const retryAfter = Math.max(1, Math.ceil((w.resetsAt - now) / 1000));
  throw new StoaError('rate_limited', `too many failed attempts from your address; try again in ${retryAfter} s`, { retryAfter });
}

/** Counts one failed attempt of a client address, here and (through the database) on the other servers. */
export function recordAuthFailure(platform: Platform, client: string | undefined): void {
  if (!client) return;
  countFailure(platform, client);
  if (shared.has(platform)) void platform.db.publish(CHANNEL, JSON.stringify({ from: shared.get(platform), client })).catch(() => undefined);
}

const CHANNEL = 'auth_failures';
/** Platforms whose failures are shared with the other servers of their database, by this server's id. */
const shared = new WeakMap<Platform, string>();

/**
 * Makes the servers of one database count failed attempts together, so N servers do not give an address N
 * times the attempts: each failure is published (PostgreSQL NOTIFY) and counted by every other server. Returns
 * the function that stops it.
 *
 * @example
 * const stop = await shareAuthFailures(platform); // at server start
 */
export async function shareAuthFailures(platform: Platform): Promise<() => Promise<void>> {
  const me = randomUUID();
  shared.set(platform, me);
  const unsubscribe = await platform.db.subscribe(CHANNEL, (payload) => {
    try {
      const m = JSON.parse(payload) as { from?: unknown; client?: unknown };
      if (m.from !== me && typeof m.client === 'string' && m.client.length <= 200) countFailure(platform, m.client);
    } catch {
      // not one of ours
    }
  });
  return async () => {
    shared.delete(platform);
    await unsubscribe();
  };
}

function countFailure(platform: Platform, client: string): void {
  const table = tableOf(platform);
  const now = platform.clock().getTime();
  const limits = platform.config.auth ?? defaultAuthLimits;
  const w = table.get(client);
  if (w && w.resetsAt > now) {
    w.failures++;
    return;
  }
  if (table.size >= PRUNE_AT) for (const [k, v] of table) if (v.resetsAt <= now) table.delete(k);
  table.set(client, { failures: 1, resetsAt: now + limits.windowSeconds * 1000 });
}

/**
 * Runs a credential check for a client address: refused at once when the address is throttled; a refusal
 * with one of the `failing` codes (a wrong token or code) counts against it.
 */
export async function throttled<T>(platform: Platform, client: string | undefined, check: () => Promise<T>, failing: string[] = ['unauthorized']): Promise<T> {
  assertNotThrottled(platform, client);
  try {
    return await check();
  } catch (e) {
    if (failing.includes((e as StoaError)?.code)) recordAuthFailure(platform, client);
    throw e;
  }
}
