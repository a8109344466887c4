import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** What a statement cache has done so far (for tests and diagnostics). */
interface StatementCacheStats {
  /** Statements found in the cache. */
  hits: number;
  /** Statements prepared: not cached yet, evicted, or the cached one busy. */
  prepared: number;
  /** Statements held now (never more than the bound). */
  size: number;
}

/**
 * The SQLite connection as Kysely's dialect sees it, with its prepared statements kept by SQL text (issue 30).
 * Kysely's SQLite driver prepares every statement afresh, and preparing costs more than running most of ours.
 * The cache is bounded, least recently used out; a cached statement that is busy (a streamed select still being
 * read) is not shared: the caller gets a fresh one. Schema changes need nothing: SQLite prepares a statement
 * again by itself when the schema it was prepared against has changed (sqlite3_prepare_v2), so `select *` sees
 * a column a migration added.
 *
 * @example
 * const database = new Database(file);
 * const kysely = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: cachingSqliteDatabase(database) }) });
 */
export function cachingSqliteDatabase(
  database: SqliteDatabase & { readonly inTransaction: boolean },
  max = 1000,
): SqliteDatabase & { readonly inTransaction: boolean; stats(): StatementCacheStats } {
  const cache = new Map<string, SqliteStatement & { busy?: boolean }>();
  let hits = 0;
  let prepared = 0;
  return {
    prepare(sql: string): SqliteStatement {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        hits++;
        // Most recently used last: a Map iterates in insertion order, so the first key is the one to evict.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = database.prepare(sql) as SqliteStatement & { busy?: boolean };
      prepared++;
      if (!hit) {
        cache.set(sql, stmt);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return stmt;
    },
    get inTransaction() {
      return database.inTransaction;
    },
    close(): void {
      cache.clear();
      database.close();
    },
    stats: () => ({ hits, prepared, size: cache.size }),
  };
}
