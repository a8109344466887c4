/**
 * Group commit of folder flushes (issue 30). Every put ends with a rename into a folder, and the rename is durable
 * only once that folder has been fsynced. Each folder has at most one flush running; the requests for a folder
 * that arrive meanwhile wait for the next one, which answers them all with one fsync.
 *
 * Durability is never traded away: a request is answered only by a flush of its folder that *started after* the
 * request was made (the running one may have read the folder before the caller's rename), and a failed flush
 * fails exactly the requests it was made for. Folders never wait for one another: the flushes of several
 * folders run side by side, and on a journalling filesystem they end in one journal commit.
 *
 * @example
 * const syncDir = createGroupSync(fsyncDir);
 * await rename(tmp, final);
 * await syncDir(dirname(final)); // shared with every other put into that folder meanwhile
 */
export function createGroupSync(flushOne: (dir: string) => Promise<void>): (dir: string) => Promise<void> {
  type Waiter = { resolve: () => void; reject: (err: unknown) => void };
  /** Folders with a flush running, and the requests made since it started (answered by the next flush). */
  const running = new Map<string, Waiter[]>();

  function flush(dir: string, waiters: Waiter[]): void {
    running.set(dir, []);
    flushOne(dir).then(
      () => settle(dir, waiters, (w) => w.resolve()),
      (err: unknown) => settle(dir, waiters, (w) => w.reject(err)),
    );
  }

  function settle(dir: string, waiters: Waiter[], answer: (w: Waiter) => void): void {
    for (const w of waiters) answer(w);
    const next = running.get(dir) ?? [];
    if (next.length > 0) flush(dir, next);
    else running.delete(dir);
  }

  return (dir) =>
    new Promise<void>((resolve, reject) => {
      const next = running.get(dir);
      if (next) next.push({ resolve, reject });
      else flush(dir, [{ resolve, reject }]);
    });
}
