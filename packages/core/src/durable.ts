import { createGroupSync } from '@stoa/blob';
import type { StoaDb } from '@stoa/db';

/**
 * Group commit of the database (issue 30, decision 0022): the platform's `durable()`, which the operation runner
 * awaits after a change committed and before it answers. At most one sync of the database runs at a time; a
 * caller is answered only by a sync that *began after* it asked — so after its own commit — and the callers
 * that ask while one runs share the next one. A failed sync fails exactly the callers it was for; the next call
 * syncs again. The same rule as the blob store's folder flushes, with the same code (fs-group-sync.ts).
 * Where a commit is durable by itself (PostgreSQL, SQLite in memory) it resolves at once.
 *
 * @example
 * const durable = durableCommits(db);
 * await inTx(platform, write); // committed
 * await durable();             // and on disk: now the change may be acknowledged
 */
export function durableCommits(db: Pick<StoaDb, 'syncCommits'>): () => Promise<void> {
  const sync = db.syncCommits;
  if (!sync) return () => Promise.resolve();
  const grouped = createGroupSync(() => sync());
  return () => grouped('database');
}
