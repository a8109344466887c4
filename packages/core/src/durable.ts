import { createGroupSync } from '@stoa/blob';
import type { StoaDb } from '@stoa/db';

/**
 * Group commit of the database (issue 30, decision 0022): the platform's `durable()`, which the operation runner
 * awaits after a change committed and before it answers. At most one sync of the database runs at a time; a
 * caller is answered only by a sync that *began after* it asked — so after its own commit — and the callers
 * that ask while one runs share the next one. A failed sync fails exactly the callers it was for; the next call
 * syncs again. The same rule as the blob store's folder flushes, with the same code (fs-group-sync.ts), plus
 * one step: the callers of one turn of the event loop are gathered before the sync starts.
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
  // The callers of one turn of the event loop (the commits that ended in the same poll phase) ask as one: the
  // group sync would start a sync for the first of them at once and make the others wait for the next.
  let gathering: Promise<void> | undefined;
  return () =>
    (gathering ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      gathering = undefined;
      return grouped('database');
    }));
}
