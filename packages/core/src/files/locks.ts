import { randomUUID } from 'node:crypto';
import { StoaError } from '@stoa/contract';
import { ancestorDirs, dirOf, isInside, normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';

/**
 * WebDAV write locks (RFC 4918 class 2), kept in the database so every server of an installation sees them.
 * A lock covers its path and, with depth "infinity", everything below. Expired locks are ignored and removed
 * when the next lock operation meets them.
 */
export interface WriteLock {
  token: string;
  path: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  owner: string | null;
  timeoutSeconds: number;
  expiresAt: string;
}

/** Longest lock a client may ask for (an "Infinite" timeout gets this). */
export const MAX_LOCK_SECONDS = 24 * 3600;
export const DEFAULT_LOCK_SECONDS = 3600;

function principalOf(ctx: Ctx): string {
  return ctx.actor.kind === 'user' ? `user:${ctx.actor.userId}` : `agent:${ctx.actor.agentId}`;
}

type LockRow = {
  token: string;
  path: string;
  depth: string;
  scope: string;
  owner: string | null;
  principal: string;
  timeout_seconds: number;
  expires_at: string;
};

function toLock(r: LockRow): WriteLock {
  return {
    token: r.token,
    path: r.path,
    depth: r.depth === '0' ? '0' : 'infinity',
    scope: r.scope === 'shared' ? 'shared' : 'exclusive',
    owner: r.owner,
    timeoutSeconds: Number(r.timeout_seconds),
    expiresAt: r.expires_at,
  };
}

/** Live locks that cover `path`, or (with `below`) that sit under it. */
async function liveLocks(q: Q, ctx: Ctx, path: string, below = false): Promise<LockRow[]> {
  const now = ctx.platform.clock().toISOString();
  const rows = (await q
    .selectFrom('dav_locks')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb('path', 'in', ['', ...ancestorDirs(path === '' ? 'x' : `${path}/x`)]),
        ...(below ? [eb('path', 'like', `${path.replace(/[\\%_]/g, (c) => '\\' + c)}/%`)] : []),
      ]),
    )
    .execute()) as LockRow[];
  return rows.filter((r) => r.path === path || (below && isInside(r.path, path)) || (r.depth !== '0' && isInside(path, r.path)));
}

/** The locks that apply to a path, for lockdiscovery. */
export async function locksOn(ctx: Ctx, rawPath: string): Promise<WriteLock[]> {
  const path = normalizePath(rawPath, 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  return (await liveLocks(ctx.platform.db.kysely, ctx, path)).map(toLock);
}

/**
 * Takes a write lock. Fails with `locked` when it conflicts: an exclusive lock conflicts with any lock on,
 * above (depth infinity) or, for a depth-infinity lock, below the path; a shared lock only with exclusive ones.
 *
 * @example
 * const lock = await lockPath(ctx, { path: 'a.md', scope: 'exclusive', depth: '0', owner: null, timeoutSeconds: 600 });
 */
export async function lockPath(
  ctx: Ctx,
  input: { path: string; scope: 'exclusive' | 'shared'; depth: '0' | 'infinity'; owner: string | null; timeoutSeconds?: number },
): Promise<WriteLock> {
  const path = normalizePath(input.path, 'folder');
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  const seconds = Math.min(Math.max(input.timeoutSeconds ?? DEFAULT_LOCK_SECONDS, 1), MAX_LOCK_SECONDS);
  const now = ctx.platform.clock();
  return inTx(ctx.platform, async (trx) => {
    await trx.deleteFrom('dav_locks').where('project_id', '=', ctx.project.id).where('expires_at', '<=', now.toISOString()).execute();
    const others = await liveLocks(trx, ctx, path, input.depth === 'infinity');
    if (others.some((o) => input.scope === 'exclusive' || o.scope === 'exclusive')) throw new StoaError('locked', `"${path || '/'}" is locked by someone else`);
    const row = {
      token: `opaquelocktoken:${randomUUID()}`,
      project_id: ctx.project.id,
      path,
      depth: input.depth,
      scope: input.scope,
      owner: input.owner,
      principal: principalOf(ctx),
      timeout_seconds: seconds,
      expires_at: new Date(now.getTime() + seconds * 1000).toISOString(),
      created_at: now.toISOString(),
    };
    await trx.insertInto('dav_locks').values(row).execute();
    return toLock(row);
  });
}

/** Refreshes the caller's locks among `tokens` that apply to `path`; fails with precondition_failed when none does. */
export async function refreshLocks(ctx: Ctx, input: { path: string; tokens: string[]; timeoutSeconds?: number }): Promise<WriteLock[]> {
  const path = normalizePath(input.path, 'folder');
  const seconds = Math.min(Math.max(input.timeoutSeconds ?? DEFAULT_LOCK_SECONDS, 1), MAX_LOCK_SECONDS);
  return inTx(ctx.platform, async (trx) => {
    const mine = (await liveLocks(trx, ctx, path)).filter((l) => input.tokens.includes(l.token) && l.principal === principalOf(ctx));
    if (mine.length === 0) throw new StoaError('precondition_failed', 'no lock of yours with that token applies here');
    const expires = new Date(ctx.platform.clock().getTime() + seconds * 1000).toISOString();
    await trx
      .updateTable('dav_locks')
      .set({ timeout_seconds: seconds, expires_at: expires })
      .where(
        'token',
        'in',
        mine.map((l) => l.token),
      )
      .execute();
    return mine.map((l) => toLock({ ...l, timeout_seconds: seconds, expires_at: expires }));
  });
}

/** Releases a lock by its token; the lock must apply to `path` (RFC 4918 lock-token-matches-request-uri). */
export async function unlockPath(ctx: Ctx, input: { path: string; token: string }): Promise<void> {
  const path = normalizePath(input.path, 'folder');
  const lock = (await liveLocks(ctx.platform.db.kysely, ctx, path)).find((l) => l.token === input.token);
  if (!lock) throw new StoaError('bad_request', 'that lock token does not apply to this resource');
  if (lock.principal !== principalOf(ctx)) throw new StoaError('forbidden', 'only the holder of a lock may release it');
  await ctx.platform.db.kysely.deleteFrom('dav_locks').where('token', '=', lock.token).execute();
}

/** What a change touches, for the lock check: the path, its parent's membership, everything below it. */
export type LockTarget = { path: string; member?: boolean; subtree?: boolean };

/**
 * Refuses a change by anyone who does not hold the locks in the way: locks on each path (or above it with depth
 * infinity), below it when the change reaches a whole folder, and on the parent folder when the change adds or
 * removes a member. Holding means being the actor who took the lock and, at a door that submits tokens (WebDAV's
 * If header, `tokens` or the context's `lockTokens`), submitting its token; at the other doors the holder's own
 * changes pass. Every file and folder change calls it in its transaction, so no door skips a lock.
 *
 * @example
 * await assertUnlocked(ctx, [{ path: 'a.md', member: true }], tokensFromIfHeader);
 */
export async function assertUnlocked(ctx: Ctx, targets: LockTarget[], tokens = ctx.lockTokens, q: Q = ctx.platform.db.kysely): Promise<void> {
  for (const t of targets) {
    const path = normalizePath(t.path, 'folder');
    const found = [...(await liveLocks(q, ctx, path, t.subtree))];
    if (t.member && path !== '') found.push(...(await liveLocks(q, ctx, dirOf(path))).filter((l) => l.path === dirOf(path) || l.depth !== '0'));
    if (found.length === 0) continue;
    // Any one held lock is enough: several shared locks each let their holder write.
    const held = found.some((l) => l.principal === principalOf(ctx) && (tokens === undefined || tokens.includes(l.token)));
    if (!held) throw new StoaError('locked', `"${path || '/'}" is locked${tokens === undefined ? ' by someone else' : '; send the lock token to change it'}`);
  }
}

/** {@link assertUnlocked} inside a change's transaction, with the tokens the request carried. */
export function assertUnlockedIn(trx: Q, ctx: Ctx, targets: LockTarget[]): Promise<void> {
  return assertUnlocked(ctx, targets, ctx.lockTokens, trx);
}

/** Live locks at, above or below a folder: one query for the lockdiscovery of a whole listing. */
export async function locksAround(ctx: Ctx, rawFolder: string): Promise<WriteLock[]> {
  const folder = normalizePath(rawFolder, 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: folder });
  return (await liveLocks(ctx.platform.db.kysely, ctx, folder, true)).map(toLock);
}

/** True when `lock` applies to `path`. */
export function lockCovers(lock: WriteLock, path: string): boolean {
  return lock.path === path || (lock.depth === 'infinity' && isInside(path, lock.path));
}
