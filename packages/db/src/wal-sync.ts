import { statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One sync of the WAL file (its handle and path); `wal.datasync()` unless a test instruments it (openDb's `syncWal`). */
export type WalSync = (wal: FileHandle, path: string) => Promise<void>;

/**
 * Makes every SQLite transaction committed so far durable with one `fdatasync` of the database's WAL file, done
 * on libuv's thread pool — never inside a COMMIT on the event loop, as `synchronous = FULL` would (decision 0022).
 *
 * At `synchronous = NORMAL` a COMMIT writes its frames to the `-wal` file without syncing it; SQLite syncs the
 * WAL before each checkpoint, the database file after it, and the WAL header when the WAL is reused from its
 * start (https://sqlite.org/pragma.html#pragma_synchronous). So what a checkpoint moved into the database file is
 * already durable, and flushing the WAL makes the rest durable (https://sqlite.org/forum/forumpost/d1a6bc7c4cd2baca).
 *
 * The handle is kept open between syncs. Before each sync the path is looked up (synchronously): when the WAL was deleted (the
 * last connection closed, which checkpoints first) there is nothing left to sync; when it was recreated (a new
 * inode), the new file is opened. The first sync of each WAL file also syncs its folder, since at NORMAL SQLite
 * syncs the folder holding a new WAL only at the first checkpoint. Syncs run one after another.
 *
 * @example
 * const wal = walSyncer('./stoa-data/stoa.db');
 * db.exec('insert …'); // committed, not yet durable
 * await wal.sync();    // durable now
 */
export function walSyncer(dbFile: string, syncOne: WalSync = (fh) => fh.datasync()): { sync(): Promise<void>; close(): Promise<void> } {
  const path = `${dbFile}-wal`;
  let held: { fh: FileHandle; dev: number; ino: number } | undefined;
  let last: Promise<void> = Promise.resolve();

  async function release(): Promise<void> {
    const h = held;
    held = undefined;
    await h?.fh.close();
  }

  async function syncNow(): Promise<void> {
    // Looked up on the event loop: one `stat` system call costs less than handing it to libuv's threads and
    // waking for its answer, which on a busy machine waits for a turn on a core (issue 30).
    const seen = statSync(path, { throwIfNoEntry: false });
    if (!seen) {
      await release();
      return;
    }
    if (!held || held.ino !== seen.ino || held.dev !== seen.dev) {
      await release();
      let fh: FileHandle;
      try {
        fh = await open(path, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      // The inode of the file actually opened (it may have been replaced since the lookup above).
      const opened = await fh.stat();
      held = { fh, dev: opened.dev, ino: opened.ino };
      await syncFolder(dirname(path));
    }
    await syncOne(held.fh, path);
  }

  return {
    sync() {
      const run = last.then(syncNow, syncNow);
      last = run.catch(() => undefined);
      return run;
    },
    async close() {
      await last;
      await release();
    },
  };
}

/** fsync of a folder, so the names in it are durable; a file system that cannot sync folders is left as is. */
async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync().catch((e: NodeJS.ErrnoException) => {
      if (!['EINVAL', 'ENOTSUP', 'EPERM', 'EBADF', 'EISDIR'].includes(e.code ?? '')) throw e;
    });
  } finally {
    await fh.close();
  }
}
