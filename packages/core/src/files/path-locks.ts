import { sql } from 'kysely';
import { ancestorDirs } from '../paths.js';
import type { Ctx, Q } from '../platform.js';

/**
 * Per-path locks of the file mutator, held until the transaction ends (issue 26). SQLite's BEGIN IMMEDIATE already
 * runs one writer at a time; on PostgreSQL parallel transactions would each read a folder, each decide and each
 * write: several deletes of one folder all "succeeding" (usage freed several times), several moves of one folder
 * all answering 200. So on PostgreSQL every change takes, before it reads anything:
 *
 * - an exclusive lock on each path it creates, replaces, moves or removes (a file, or a whole folder), and
 * - a shared lock on every folder above them, so a folder is never deleted or moved under a file being written,
 *   while writes in one folder still run side by side.
 *
 * The locks are taken in one order (by path), so two changes never wait on each other in a circle. The second of
 * two changes of one path then reads what the first committed and answers 404 or 409 as the state says.
 *
 * @example
 * await lockPaths(trx, ctx, ['drafts', 'archive/drafts']); // a folder move: both paths, shared above them
 */
export async function lockPaths(trx: Q, ctx: Ctx, paths: string[]): Promise<void> {
  if (ctx.platform.db.dialect !== 'postgres') return;
  const mode = new Map<string, 'exclusive' | 'shared'>();
  for (const p of paths) for (const a of ancestorDirs(p)) if (!mode.has(a)) mode.set(a, 'shared');
  for (const p of paths) mode.set(p, 'exclusive');
  // One round trip: PostgreSQL evaluates a select list from left to right, so the locks are taken in path order.
  const calls = [...mode]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, m]) => {
      const key = `${ctx.project.id}:${path}`;
      return m === 'exclusive' ? sql`pg_advisory_xact_lock(hashtext(${key}))` : sql`pg_advisory_xact_lock_shared(hashtext(${key}))`;
    });
  await sql`select ${sql.join(calls)}`.execute(trx);
}
