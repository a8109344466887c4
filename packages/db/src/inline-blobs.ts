import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { GroupCommitSqliteDriver } from './dialect.js';

/**
 * The rows of small blobs kept in the database (migration 041, docs/decisions/0021-small-blobs-in-the-database.md):
 * the table the tiered blob store of `@stoa/blob` keeps content up to its threshold in. Every call is one
 * statement that commits on its own, on a handle of its own, never the Kysely connection or pool the operations
 * use: the blob store is called inside their transactions (the commit checks the bytes it is about to reference,
 * the sweeper deletes bytes while it holds the blob's row), and waiting there for the connection those
 * transactions hold would wait forever.
 *
 * @example
 * await db.inlineBlobs.insert(sha256, bytes);
 * const bytes = await db.inlineBlobs.get(sha256); // null: not kept in the database
 */
export interface InlineBlobRows {
  get(key: string): Promise<Buffer | null>;
  size(key: string): Promise<number | null>;
  /**
   * Keeps `content` under `key` (nothing when the key is there: equal content by definition). Resolves false,
   * having stored nothing, when it cannot write now without joining a transaction it does not own (SQLite, whose
   * one connection is inside another operation's transaction): the caller keeps the bytes elsewhere.
   */
  insert(key: string, content: Buffer): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Up to `limit` keys after `after` (in key order): the listing pages, never holding a statement open. */
  keysAfter(after: string, limit: number): Promise<string[]>;
  /** Which of `keys` are kept here. */
  which(keys: string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

/** Turns of the event loop a SQLite write waits for the connection to be free. */
const WAIT_TURNS = 3;

/**
 * SQLite: statements on the one connection, run synchronously beside Kysely, when the driver finds the connection
 * free: at once when nobody uses it, else the moment it changes hands (`whenFree`, dialect.ts). So a read inside an
 * operation's transaction sees that transaction, as it must (the commit checks bytes the same connection holds),
 * and never waits. A write never slips into someone else's transaction, which might roll back: it commits at
 * once (WAL with `synchronous = NORMAL`: an append to the log, no fsync), or with the group of transactions
 * the connection is between (the version that references the bytes commits with it or after it). When the
 * connection stays taken for a few turns of the event loop — perhaps by the caller's own transaction, which
 * waits on us — an insert is refused (`insert` → false: the caller keeps the bytes elsewhere), and a delete joins
 * the transaction: the deleter inside a transaction is the sweeper, whose own transaction it is (the blob's
 * `blobs` row and its bytes go together); were it another one that rolls back, the bytes would only wait for the
 * next sweep.
 */
export function sqliteInlineBlobRows(database: Database.Database, connection: Pick<GroupCommitSqliteDriver, 'whenFree'>): InlineBlobRows {
  let s: ReturnType<typeof prepare> | undefined;
  // Prepared on first use: the table exists only once the migrations ran.
  const prepare = () => ({
    get: database.prepare<[string], { content: Buffer }>('select content from inline_blobs where key = ?'),
    size: database.prepare<[string], { size: number }>('select size from inline_blobs where key = ?'),
    insert: database.prepare<[string, number, Buffer]>('insert into inline_blobs (key, size, content) values (?, ?, ?) on conflict (key) do nothing'),
    delete: database.prepare<[string]>('delete from inline_blobs where key = ?'),
    keysAfter: database.prepare<[string, number], { key: string }>('select key from inline_blobs where key > ? order by key limit ?'),
  });
  const st = () => (s ??= prepare());
  return {
    get: async (key) => st().get.get(key)?.content ?? null,
    size: async (key) => st().size.get(key)?.size ?? null,
    insert: (key, content) => connection.whenFree(() => void st().insert.run(key, content.length, content), WAIT_TURNS),
    delete: async (key) => {
      const run = () => void st().delete.run(key);
      if (!(await connection.whenFree(run, WAIT_TURNS))) run();
    },
    keysAfter: async (after, limit) =>
      st()
        .keysAfter.all(after, limit)
        .map((r) => r.key),
    which: async (keys) => {
      if (keys.length === 0) return new Set();
      const rows = database.prepare(`select key from inline_blobs where key in (${keys.map(() => '?').join(',')})`).all(...keys) as Array<{ key: string }>;
      return new Set(rows.map((r) => r.key));
    },
    close: async () => undefined,
  };
}

/**
 * PostgreSQL: a small pool of its own (made on first use), so an operation's transaction that asks the blob
 * store never waits for a connection of the pool it holds one of; its statements touch only this table and
 * commit at once, so they never wait for those transactions either. Its connections commit with
 * `synchronous_commit = off`: an insert costs no WAL flush of its own, and the commit that references the blob flushes
 * the log up to itself, the insert included — a version on disk never points at lost bytes (decision 0021).
 */
export function pgInlineBlobRows(url: string): InlineBlobRows {
  let pool: Promise<pg.Pool> | undefined;
  const open = async (): Promise<pg.Pool> => {
    const { default: driver } = await import('pg');
    const p = new driver.Pool({ connectionString: url, max: 4, options: '-c synchronous_commit=off' });
    p.on('error', () => undefined); // a lost idle connection is replaced on the next query
    return p;
  };
  const q = async <R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> => (await (await (pool ??= open())).query<R>(text, values)).rows;
  return {
    get: async (key) => (await q<{ content: Buffer }>('select content from inline_blobs where key = $1', [key]))[0]?.content ?? null,
    size: async (key) => (await q<{ size: number }>('select size from inline_blobs where key = $1', [key]))[0]?.size ?? null,
    insert: async (key, content) => {
      await q('insert into inline_blobs (key, size, content) values ($1, $2, $3) on conflict (key) do nothing', [key, content.length, content]);
      return true;
    },
    delete: async (key) => void (await q('delete from inline_blobs where key = $1', [key])),
    keysAfter: async (after, limit) =>
      (await q<{ key: string }>('select key from inline_blobs where key > $1 order by key limit $2', [after, limit])).map((r) => r.key),
    which: async (keys) => new Set((await q<{ key: string }>('select key from inline_blobs where key = any($1)', [keys])).map((r) => r.key)),
    close: async () => {
      if (pool) await (await pool).end();
    },
  };
}
