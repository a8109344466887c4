/**
 * Two first writes of one new path race on the unique (project, path) index on PostgreSQL (SQLite serialises
 * writers). The loser retries once the winner committed, and then sees the file as existing.
 */
export async function withWriteRetry<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts || !isUniqueViolation(e)) throw e;
    }
  }
}

export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: unknown };
  // inTx turns the violation into already_exists and keeps the database error as its cause.
  if (err?.code === 'already_exists' && err.cause) return isUniqueViolation(err.cause);
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
