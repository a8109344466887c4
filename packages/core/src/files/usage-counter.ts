import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { Ctx, Q } from '../platform.js';
import { quotaOf } from '../projects/projects.js';
import { hotStatement } from '../hot-query.js';

/**
 * The project's storage counters, `used_bytes` and `reserved_bytes`, and their only writers (issue 26; the doctor's
 * `--repair` aside). Every file change of the file mutator adjusts them here, in its own transaction and as its
 * last statement: the project's row is every writer's shared counter, so its lock is held for one statement and
 * the commit, not across storage calls. Checks and updates are one statement each, so parallel writers that
 * together exceed the quota cannot all succeed, and a change counted twice cannot happen.
 */

/**
 * Adjusts usage by `delta` (negative frees space), releasing `releaseReserved` bytes of a direct upload's
 * reservation at the same time; growth is refused with quota_exceeded when it would pass the quota.
 *
 * @example
 * await chargeUsage(trx, ctx, newSize - oldSize);
 */
export async function chargeUsage(trx: Q, ctx: Ctx, delta: number, releaseReserved = 0): Promise<void> {
  if (delta === 0 && releaseReserved === 0) return;
  const quota = quotaOf(ctx.platform, ctx.project);
  // Growth is checked against the quota in the same statement (shape 1); shrinking never is (shape 0).
  const r = await charge(trx, { project: ctx.project.id, delta, release: releaseReserved, quota }, delta > 0 ? 1 : 0);
  if (Number(r.numAffectedRows) === 0) {
    throw new StoaError('quota_exceeded', `not enough storage space: this needs ${delta} more bytes than the ${quota}-byte quota has free`);
  }
}

/** Every write's last statement: built once per shape (issue 30). */
const charge = hotStatement((db, a: { project: string; delta: number; release: number; quota: number }, checked) => {
  const q = db
    .updateTable('projects')
    .set({ used_bytes: sql`used_bytes + ${a.delta}`, reserved_bytes: sql`reserved_bytes - ${a.release}` })
    .where('id', '=', a.project);
  return checked ? q.where(sql<boolean>`used_bytes + reserved_bytes - ${a.release} + ${a.delta} <= ${a.quota}`) : q;
});

/**
 * Reserves space for a direct upload in flight (B8), refused with quota_exceeded when used plus reserved space
 * would pass the quota.
 *
 * @example
 * await reserveSpace(trx, ctx, 1_000_000_000);
 */
export async function reserveSpace(trx: Q, ctx: Ctx, bytes: number): Promise<void> {
  const quota = quotaOf(ctx.platform, ctx.project);
  const r = await trx
    .updateTable('projects')
    .set({ reserved_bytes: sql`reserved_bytes + ${bytes}` })
    .where('id', '=', ctx.project.id)
    .where(sql<boolean>`used_bytes + reserved_bytes + ${bytes} <= ${quota}`)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new StoaError('quota_exceeded', `not enough storage space for ${bytes} bytes`);
}

/** Gives back a reservation that will not become a file (aborted, failed, expired). */
export async function releaseSpace(trx: Q, projectId: string, bytes: number): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ reserved_bytes: sql`reserved_bytes - ${bytes}` })
    .where('id', '=', projectId)
    .execute();
}
