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
 * current window: `rate_limited` (HTTP 429) with `retryAfter` seconds. Each process counts on its own; the
 * window is short, so a restart forgets little. A missing address (in-process callers) is never throttled.
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

/** Counts one failed attempt of a client address. */
export function recordAuthFailure(platform: Platform, client: string | undefined): void {
  if (!client) return;
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
