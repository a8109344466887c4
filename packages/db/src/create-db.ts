import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { GroupCommitSqliteDriver, ImmediateSqliteDialect, type Dialect } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import { namedStatementsPool } from './pg-named-statements.js';
import { cachingSqliteDatabase } from './statement-cache.js';
import { walSyncer, type WalSync } from './wal-sync.js';
import { pgInlineBlobRows, sqliteInlineBlobRows, type InlineBlobRows } from './inline-blobs.js';
import { vacuumWhereDue, type Maintenance, type VacuumMode } from './pg-vacuum.js';
import type { DB } from './schema.js';

export type { Dialect } from './dialect.js';

/** A database handle: the Kysely instance plus what the core needs to know about its dialect. */
export interface StoaDb {
  kysely: Kysely<DB>;
  dialect: Dialect;
  /**
   * Whether SQL can compute vector distances, prepared on first ask (not at start-up): SQLite with the sqlite-vec
   * extension loaded (`vec_distance_cosine`), PostgreSQL with pgvector (the `vector` extension created where the
   * installation has it, and the `search_vectors.embedding` column added); false where neither is installed.
   */
  vectorFunctions(): Promise<boolean>;
  /**
   * Messages between the servers of one database (PostgreSQL `LISTEN`/`NOTIFY`): what one server publishes on a
   * channel reaches every subscriber on it, its own included. On SQLite, where one process serves, a message
   * goes to this process's subscribers only.
   */
  publish(channel: string, payload: string): Promise<void>;
  /** Calls `handler` with every message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Makes every transaction committed before the call durable (decision 0022): on a SQLite file, one `fdatasync`
   * of its WAL off the event loop (wal-sync.ts) — a COMMIT at `synchronous = NORMAL` does not sync. Null where
   * there is nothing to do: PostgreSQL, whose COMMIT returns once its WAL is flushed, and SQLite in memory.
   * Not shared between callers by itself: the platform's `durable()` groups concurrent callers onto one sync.
   */
  syncCommits: (() => Promise<void>) | null;
  /** The table of small blobs kept in the database, on a handle of its own (see inline-blobs.ts). */
  inlineBlobs: InlineBlobRows;
  /**
   * Vacuums and analyzes the tables that are due where the PostgreSQL server's autovacuum is off (pg-vacuum.ts,
   * decision 0036); nothing on SQLite, where a write reuses a deleted row's pages at once, or with `vacuum: 'off'`.
   */
  maintain(): Promise<Maintenance>;
  close(): Promise<void>;
}

/**
 * SQLite's memory for reading the database file (decision 0028), when the configuration names none:
 * - `mmapBytes`: how much of the file SQLite reads through a memory map (`PRAGMA mmap_size`) instead of copying
 *   each page into its own cache with a `read()`; the pages are the kernel's page cache, shared and reclaimable,
 *   not the process's heap. Writes still go through the pager and the WAL (https://sqlite.org/mmap.html).
 *   Capped by this SQLite build at 2 GiB − 64 KiB; 0 turns it off.
 * - `cacheBytes`: SQLite's own page cache for the pages it does not map (`PRAGMA cache_size`), heap memory.
 */
export const SQLITE_MEMORY_DEFAULTS = { mmapBytes: 1024 * 2 ** 20, cacheBytes: 16 * 2 ** 20 } as const;

export type SqliteConfig = { kind: 'sqlite'; file: string; mmapBytes?: number; cacheBytes?: number };
export type DbConfig = SqliteConfig | { kind: 'postgres'; url: string; poolSize?: number; vacuum?: VacuumMode };

/** What a caller may choose beyond the configuration. */
export interface DbOptions {
  /** The sync of the SQLite WAL file (`fh.datasync()` by default); tests instrument it to see when it runs. */
  syncWal?: WalSync;
}

/**
 * Opens the database, applies pending migrations and returns the handle.
 *
 * @example
 * const db = await openDb({ kind: 'sqlite', file: './stoa-data/stoa.db' });
 */
export async function openDb(config: DbConfig, opts: DbOptions = {}): Promise<StoaDb> {
  let kysely: Kysely<DB>;
  let dialect: Dialect;
  let sqlite: Database.Database | undefined;
  let wal: ReturnType<typeof walSyncer> | undefined;
  let driver: GroupCommitSqliteDriver | undefined;
  let messages: Pick<StoaDb, 'publish' | 'subscribe'> & { close(): Promise<void> } = localMessages();
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const database = new Database(config.file);
    database.pragma('journal_mode = WAL');
    // A COMMIT does not sync (FULL would, on the event loop, stalling every other request); an acknowledged write
    // is made durable by `syncCommits` after its commit, one sync shared by the commits of that moment (0022).
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 30000');
    database.pragma('foreign_keys = ON');
    database.pragma('temp_store = MEMORY');
    // Both are read-side memory only (decision 0028): a database past the page cache reads each row of a scan
    // or a lookup through `read()` into a 16 MB heap cache; mapped, it reads the kernel's pages where they lie.
    const mmapBytes = config.mmapBytes ?? SQLITE_MEMORY_DEFAULTS.mmapBytes;
    const cacheBytes = config.cacheBytes ?? SQLITE_MEMORY_DEFAULTS.cacheBytes;
    database.pragma(`mmap_size = ${Math.floor(mmapBytes)}`);
    // A negative cache_size is in KiB (a positive one would be in pages).
    database.pragma(`cache_size = ${-Math.max(1, Math.floor(cacheBytes / 1024))}`);
    sqlite = database;
    // A database in memory (or SQLite's private temporary one, '') has no file to sync.
    if (config.file !== ':memory:' && config.file !== '' && !database.memory) wal = walSyncer(config.file, opts.syncWal);
    const sqliteDialect = new ImmediateSqliteDialect({ database: cachingSqliteDatabase(database) });
    driver = sqliteDialect.driver;
    kysely = new Kysely<DB>({ dialect: sqliteDialect });
    dialect = 'sqlite';
  } else {
    // Loaded only for PostgreSQL: a SQLite installation never pays for the driver at start-up.
    const { default: pg } = await import('pg');
    // PostgreSQL returns BIGINT (int8) as strings by default; every int8 we store (sizes, counters) fits in a double.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize ?? 10 });
    // An idle connection that the server closes (restart, failover, a dropped database) is reported on the pool;
    // unhandled, that event would end the process. The pool replaces the connection on the next query.
    pool.on('error', (e: Error & { code?: string }) => {
      if (e.code !== '57P01') console.warn(`database connection lost: ${e.message}`);
    });
    kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementsPool(pool) }) });
    dialect = 'postgres';
    messages = pgMessages(pool, () => new pg.Client({ connectionString: config.url }));
  }
  if (config.kind === 'sqlite' && sqlite) {
    // Kysely takes no migration lock on SQLite, so processes opening a fresh data folder at once would each
    // create the tables. Migrate inside one write transaction: the others wait on it and then find nothing to do.
    sqlite.exec('begin immediate');
    try {
      await migrateToLatest(kysely, dialect);
      sqlite.exec('commit');
    } catch (e) {
      if (sqlite.inTransaction) sqlite.exec('rollback');
      throw e;
    }
  } else {
    await migrateToLatest(kysely, dialect);
  }
  const inlineBlobs = sqlite && driver ? sqliteInlineBlobRows(sqlite, driver) : pgInlineBlobRows((config as { url: string }).url);
  // A statement outside a transaction may have run inside a group of transactions still open (dialect.ts): the
  // sync waits for that group's COMMIT, so what it makes durable includes every change made before the call.
  const walFile = wal;
  const group = driver;
  const syncCommits =
    walFile && group
      ? async () => {
          await group.settled();
          await walFile.sync();
        }
      : null;
  return {
    kysely,
    dialect,
    vectorFunctions: once(() => (sqlite ? loadSqliteVec(sqlite) : enablePgvector(kysely))),
    publish: messages.publish,
    subscribe: messages.subscribe,
    syncCommits,
    inlineBlobs,
    maintain: async () => (config.kind === 'postgres' && config.vacuum !== 'off' ? vacuumWhereDue(kysely) : { vacuumed: [], analyzed: [] }),
    close: async () => {
      await messages.close();
      await wal?.close();
      await inlineBlobs.close();
      await kysely.destroy();
    },
  };
}

type Messages = Pick<StoaDb, 'publish' | 'subscribe'> & { close(): Promise<void> };

/** Messages inside one process (SQLite: one server per database). */
function localMessages(): Messages {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  return {
    async publish(channel, payload) {
      pgChannel(channel);
      for (const h of handlers.get(channel) ?? []) queueMicrotask(() => h(payload));
    },
    async subscribe(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set.add(handler));
      return async () => void set.delete(handler);
    },
    close: async () => handlers.clear(),
  };
}

/** Channel names are identifiers: prefixed and limited to what needs no quoting. */
function pgChannel(channel: string): string {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  return `stoa_${channel}`;
}

/**
 * LISTEN/NOTIFY: one dedicated connection per subscription (a pooled one would be handed to queries), reopened
 * after a lost connection; messages sent while it was down are lost, so subscribers hold only what may be
 * forgotten (short-lived counters), never state the database does not also keep.
 */
function pgMessages(pool: { query(text: string, values: unknown[]): Promise<unknown> }, newClient: () => import('pg').Client): Messages {
  const closers = new Set<() => Promise<void>>();
  return {
    async publish(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [pgChannel(channel), payload]);
    },
    async subscribe(channel, handler) {
      const name = pgChannel(channel);
      let client: import('pg').Client | undefined;
      let closed = false;
      const connect = async (): Promise<void> => {
        const c = newClient();
        c.on('notification', (m) => {
          if (m.channel === name) handler(m.payload ?? '');
        });
        c.on('error', retry);
        await c.connect();
        await c.query(`listen ${name}`);
        client = c;
      };
      // Lost (a restart, a failover): listen again on a new connection shortly, until it works.
      function retry(): void {
        if (!closed) setTimeout(() => void connect().catch(retry), 1000).unref();
      }
      await connect();
      const close = async (): Promise<void> => {
        closed = true;
        closers.delete(close);
        await client?.end().catch(() => undefined);
      };
      closers.add(close);
      return close;
    },
    async close() {
      await Promise.all([...closers].map((c) => c()));
    },
  };
}

/** Loads sqlite-vec (an optional dependency) into the connection; false when it is not installed for this platform. */
async function loadSqliteVec(database: Database.Database): Promise<boolean> {
  try {
    const { load } = await import('sqlite-vec');
    load(database);
    return true;
  } catch {
    return false;
  }
}

/**
 * pgvector where the installation has it (Debian's PostgreSQL does not ship it; an operator installs it):
 * `create extension if not exists vector`, then a `vector` column beside the stored bytes (which stay the source
 * of truth, so turning pgvector on or off loses nothing) and a partial index on the rows still without it.
 * False, with one warning, when the extension is not available or this role may not create it.
 */
async function enablePgvector(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ available: boolean }>`select exists (select 1 from pg_available_extensions where name = 'vector') as available`.execute(db);
  if (!rows[0]?.available) return false;
  let reason = '';
  try {
    await sql`create extension if not exists vector`.execute(db);
    await sql`alter table search_vectors add column if not exists embedding vector`.execute(db);
    await sql`create index if not exists search_vectors_unfilled on search_vectors (project_id) where embedding is null and vector is not null`.execute(db);
  } catch (e) {
    reason = (e as Error).message;
  }
  // Another server may have run the same statements at the same moment (its win, ours fail): the column decides.
  const ready = await sql<{ ready: boolean }>`
    select exists (select 1 from information_schema.columns
      where table_schema = current_schema() and table_name = 'search_vectors' and column_name = 'embedding') as ready`.execute(db);
  if (ready.rows[0]?.ready) return true;
  console.warn(`pgvector is installed but cannot be used here (${reason}); vector search scans the stored vectors instead`);
  return false;
}

function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** Current time as stored in every timestamp column: ISO-8601 UTC text, sortable on both back ends. */
export function nowIso(clock: () => Date = () => new Date()): string {
  return clock().toISOString();
}

export { sql };
