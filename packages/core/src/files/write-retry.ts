import { isDeadlock, isUniqueViolation } from '../db-guard.js';

/**
 * Two first writes of one new path race on the unique (project, path) index on PostgreSQL (SQLite serialises
 * writers). The loser retries once the winner committed, and then sees the file as existing. A transaction
 * PostgreSQL ended to break a deadlock kept nothing and runs again too.
 */
export async function withWriteRetry<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts || !(isUniqueViolation(e) || isDeadlock(e))) throw e;
    }
  }
}
