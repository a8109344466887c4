import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, sql, type StoaDb } from './create-db.js';
import { testDbKinds, createTestDb } from './test-db.js';
import type { WalSync } from './wal-sync.js';

const dirs: string[] = [];
const dbs: StoaDb[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((d) => d.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A SQLite database whose WAL syncs are recorded: the inode each one synced, and the WAL's inode at that moment. */
async function recordedDb() {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-wal-sync-'));
  dirs.push(dir);
  const file = join(dir, 'stoa.db');
  const synced: Array<{ ino: number; current: number }> = [];
  const syncWal: WalSync = async (fh, path) => {
    synced.push({ ino: (await fh.stat()).ino, current: statSync(path).ino });
    await fh.datasync();
  };
  const db = await openDb({ kind: 'sqlite', file }, { syncWal });
  dbs.push(db);
  const write = (n: number) => sql`insert into installation_secrets (name, value, created_at) values (${`k${n}`}, 'v', 'now')`.execute(db.kysely);
  return { db, file, synced, write };
}

describe('the sync of the SQLite WAL (decision 0022)', () => {
  it('syncs the WAL file itself, again after it was deleted and made anew (a new inode), and nothing while there is none', async () => {
    const { db, file, synced, write } = await recordedDb();
    await write(1);
    await db.syncCommits!();
    expect(synced).toHaveLength(1);
    expect(synced[0]!.ino).toBe(statSync(`${file}-wal`).ino);

    // Leaving WAL mode checkpoints the WAL into the database file (synced by SQLite) and deletes it; nothing to sync.
    await sql`pragma journal_mode = delete`.execute(db.kysely);
    await db.syncCommits!();
    expect(synced).toHaveLength(1);

    // Back in WAL mode, a new file: the old handle is let go and the new file synced.
    await sql`pragma journal_mode = wal`.execute(db.kysely);
    await write(2);
    await db.syncCommits!();
    expect(synced).toHaveLength(2);
    expect(synced[1]!.ino).toBe(synced[1]!.current);
  });

  it('notices a WAL replaced between two syncs without ever seeing it missing', async () => {
    const { db, synced, write } = await recordedDb();
    await write(1);
    await db.syncCommits!();
    await sql`pragma journal_mode = delete`.execute(db.kysely);
    await sql`pragma journal_mode = wal`.execute(db.kysely);
    await write(2);
    await db.syncCommits!();
    expect(synced).toHaveLength(2);
    // The first handle kept the deleted file's inode alive, so the new file cannot have its number.
    expect(synced[1]!.ino).not.toBe(synced[0]!.ino);
    expect(synced[1]!.ino).toBe(synced[1]!.current);
  });

  it('has nothing to sync for a database in memory', async () => {
    const db = await openDb({ kind: 'sqlite', file: ':memory:' });
    dbs.push(db);
    expect(db.syncCommits).toBeNull();
  });

  it.each(testDbKinds().filter((k) => k === 'postgres'))('has nothing to sync on %s, whose COMMIT is durable', async (kind) => {
    const { db, cleanup } = await createTestDb(kind);
    try {
      expect(db.syncCommits).toBeNull();
    } finally {
      await cleanup();
    }
  });
});
