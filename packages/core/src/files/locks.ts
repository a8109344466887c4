import { randomUUID } from 'node:crypto';
import { StoaError } from '@stoa/contract';
import { ancestorDirs, dirOf, isInside, normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan, can } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { hotQuery } from '../hot-query.js';

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

/** A lock's length when the client names none (never over the installation's cap). */
export const DEFAULT_LOCK_SECONDS = 3600;

/**
 * A lock's length: what the client asked for (an "Infinite" timeout is Infinity), at least a second, at most the
 * installation's cap STOA_LOCK_MAX_SECONDS (issue 26), so a forgotten lock ends by itself.
 */
function lockSeconds(ctx: Ctx, asked: number | undefined): number {
  const cap = ctx.platform.config.limits.lockMaxSeconds;
  return Math.min(Math.max(asked ?? DEFAULT_LOCK_SECONDS, 1), cap);
}

/** Project admins (and the installation administrator) may release any lock in reach (issue 26). */
function mayReleaseAny(ctx: Ctx): boolean {
  return can(ctx.actor, 'project.admin', { kind: 'project' }) === null;
}

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
  return (await locksAtOrAbove(q, ctx, path, below)).filter((r) => covers(r, path, below));
}

/** Whether a live lock row at `path`, above it or (with `below`) under it applies to `path`. */
function covers(r: LockRow, path: string, below = false): boolean {
  return r.path === path || (below && isInside(r.path, path)) || (r.depth !== '0' && isInside(path, r.path));
}

/**
 * The live lock rows at `path` and at every folder above it (or, with `below`, under it): a superset of those at
 * and above any of its ancestors, which the caller filters.
 */
async function locksAtOrAbove(q: Q, ctx: Ctx, path: string, below = false): Promise<LockRow[]> {
  const now = ctx.platform.clock().toISOString();
  const around = ['', ...ancestorDirs(path === '' ? 'x' : `${path}/x`)];
  if (!below) {
    // Every write asks this, twice (runner and mutator): a statement built once per list length (issue 30), the
    // list padded with the root.
    const shape = Math.ceil(around.length / 4) * 4;
    const args: Record<string, string> = { project: ctx.project.id, now };
    for (let i = 0; i < shape; i++) args[`p${i}`] = around[i] ?? '';
    return (await liveLockRowsOn(q, args, shape)) as LockRow[];
  }
  return (await q
    .selectFrom('dav_locks')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('expires_at', '>', now)
    .where((eb) => eb.or([eb('path', 'in', around), eb('path', 'like', `${path.replace(/[\\%_]/g, (c) => '\\' + c)}/%`)]))
    .execute()) as LockRow[];
}

/** Live locks of a project on any of the paths `p0` … `p<shape - 1>`. */
const liveLockRowsOn = hotQuery((db, a: Record<string, string>, shape) =>
  db
    .selectFrom('dav_locks')
    .selectAll()
    .where('project_id', '=', a.project!)
    .where('expires_at', '>', a.now!)
    .where(
      'path',
      'in',
      Array.from({ length: shape }, (_, i) => a[`p${i}`]!),
    ),
);

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
  // A Depth-infinity lock on the root stops every write in the project: only its admins may take one (issue 26).
  if (path === '' && input.depth === 'infinity' && !mayReleaseAny(ctx))
    throw new StoaError('forbidden', 'only project admins may lock the whole project; lock the files or folders you work on');
  const seconds = lockSeconds(ctx, input.timeoutSeconds);
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
  const seconds = lockSeconds(ctx, input.timeoutSeconds);
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

/**
 * Releases a lock by its token; the lock must apply to `path` (RFC 4918 lock-token-matches-request-uri). Its
 * holder may, and so may the project's admins and the installation administrator (issue 26).
 */
export async function unlockPath(ctx: Ctx, input: { path: string; token: string }): Promise<void> {
  const path = normalizePath(input.path, 'folder');
  const lock = (await liveLocks(ctx.platform.db.kysely, ctx, path)).find((l) => l.token === input.token);
  if (!lock) throw new StoaError('bad_request', 'that lock token does not apply to this resource');
  if (lock.principal !== principalOf(ctx) && !mayReleaseAny(ctx))
    throw new StoaError('forbidden', 'only the holder of a lock or a project admin may release it');
  await ctx.platform.db.kysely.deleteFrom('dav_locks').where('token', '=', lock.token).execute();
}

/** A live lock as listed to people: who holds it, so an admin knows whose work a release interrupts. */
export interface LockInfo extends WriteLock {
  holder: { kind: 'user' | 'agent'; id: string; name: string | null };
  mine: boolean;
}

/**
 * Every live lock of the project (or volume), for its members: `stoa locks list`, the web UI's lock list.
 *
 * @example
 * await listLocks(ctx) // [{ path: 'a.md', holder: { kind: 'user', name: 'ed' }, mine: false, … }]
 */
export async function listLocks(ctx: Ctx): Promise<LockInfo[]> {
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: '' });
  const rows = (await ctx.platform.db.kysely
    .selectFrom('dav_locks')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('expires_at', '>', ctx.platform.clock().toISOString())
    .orderBy('path')
    .execute()) as LockRow[];
  const users = new Map(
    (
      await ctx.platform.db.kysely
        .selectFrom('users')
        .select(['id', 'name'])
        .where('id', 'in', ['', ...rows.map((r) => r.principal.slice(5))])
        .execute()
    ).map((u) => [u.id, u.name]),
  );
  const agents = new Map(
    (
      await ctx.platform.db.kysely
        .selectFrom('agents')
        .select(['id', 'name'])
        .where('id', 'in', ['', ...rows.map((r) => r.principal.slice(6))])
        .execute()
    ).map((a) => [a.id, a.name]),
  );
  return rows.map((r) => {
    const kind = r.principal.startsWith('agent:') ? ('agent' as const) : ('user' as const);
    const id = r.principal.slice(kind === 'agent' ? 6 : 5);
    return { ...toLock(r), holder: { kind, id, name: (kind === 'agent' ? agents.get(id) : users.get(id)) ?? null }, mine: r.principal === principalOf(ctx) };
  });
}

/**
 * Releases a lock of the project by its token, wherever it sits: its holder, a project admin or the installation
 * administrator (issue 26). Someone else gets forbidden; a token that names no live lock here, not_found.
 *
 * @example
 * await releaseLock(ctx, { token: 'opaquelocktoken:…' });
 */
export async function releaseLock(ctx: Ctx, input: { token: string }): Promise<WriteLock> {
  assertCan(ctx.actor, 'file.read', { kind: 'file', path: '' });
  const row = (await ctx.platform.db.kysely
    .selectFrom('dav_locks')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('token', '=', input.token)
    .where('expires_at', '>', ctx.platform.clock().toISOString())
    .executeTakeFirst()) as LockRow | undefined;
  if (!row) throw new StoaError('not_found', 'there is no such lock in this project (it may have expired or been released)');
  if (row.principal !== principalOf(ctx) && !mayReleaseAny(ctx))
    throw new StoaError('forbidden', 'only the holder of a lock or a project admin may release it');
  await inTx(ctx.platform, async (trx) => {
    await trx.deleteFrom('dav_locks').where('token', '=', row.token).execute();
    if (row.principal !== principalOf(ctx)) await recordAudit(trx, ctx, { action: 'lock.release', path: row.path, details: { holder: row.principal } });
  });
  return toLock(row);
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
    // One statement per target: the rows at and above the path hold those at and above its parent folder too.
    const rows = await locksAtOrAbove(q, ctx, path, t.subtree);
    const found = rows.filter((r) => covers(r, path, t.subtree));
    if (t.member && path !== '') {
      const dir = dirOf(path);
      found.push(...rows.filter((l) => covers(l, dir) && (l.path === dir || l.depth !== '0')));
    }
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
