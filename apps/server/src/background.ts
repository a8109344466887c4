import { embedPending, processPendingAssets, type Platform } from '@stoa/core';

/**
 * The server's background pass, every `intervalMs`: changes left in the derived-data outbox are indexed (a drain
 * after their commit failed or was cut off), files queued for understanding (new PDF and DOCX uploads,
 * understood files that changed) are parsed, then whatever was indexed since (pages, memory, files, chunks) gets
 * its vectors where an embedding model is configured. One pass at a time; outside every request and write
 * transaction, so an upload is acknowledged before its document is parsed. Returns the function that stops it.
 *
 * @example
 * const stop = startBackgroundPasses(platform, { onError: (e, what) => log.error({ err: e }, what) });
 */
export function startBackgroundPasses(platform: Platform, opts: { onError: (e: unknown, what: string) => void; intervalMs?: number }): () => void {
  let running = false;
  // Changes a crash left in the outbox (committed, not yet indexed) are indexed at once at start-up.
  platform.outbox.wake();
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    platform.outbox
      .drainAll()
      .catch((e) => opts.onError(e, 'background indexing failed'))
      .then(() => processPendingAssets(platform))
      .catch((e) => opts.onError(e, 'background parsing failed'))
      .then(() => embedPending(platform))
      .catch((e) => opts.onError(e, 'background embedding failed'))
      .finally(() => (running = false));
  }, opts.intervalMs ?? 2000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Database upkeep every `intervalMs` (10 s by default): tables the PostgreSQL server's autovacuum would have
 * vacuumed or analyzed by now, where it is off (decision 0036; nothing on SQLite). A loop of its own, so that a
 * long vacuum never holds back indexing. Returns the function that stops it (after a pass under way).
 *
 * @example
 * const stop = startDatabaseUpkeep(platform, { onError: (e) => log.error({ err: e }, 'database upkeep failed') });
 */
export function startDatabaseUpkeep(platform: Platform, opts: { onError: (e: unknown) => void; intervalMs?: number }): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= platform.db
      .maintain()
      .then(() => undefined, opts.onError)
      .finally(() => (running = undefined));
  }, opts.intervalMs ?? 10_000);
  timer.unref();
  // A vacuum under way finishes before the database closes, rather than failing on a closed pool.
  return async () => {
    clearInterval(timer);
    await running;
  };
}
