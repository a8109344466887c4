import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type SqliteDialectConfig,
} from 'kysely';

/** The two back ends Stoa runs on. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * SQLite driver whose transactions start with `BEGIN IMMEDIATE`.
 *
 * Why: a deferred transaction that reads and then writes must upgrade its lock; when two processes do that on
 * one file at once, SQLite fails one with SQLITE_BUSY without waiting on the busy timeout. Taking the write
 * lock up front makes concurrent writers queue on `busy_timeout` instead, which is what 50 parallel
 * `stoa memory append` processes need.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SqliteDialect with immediate transactions (see ImmediateSqliteDriver). */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter() {
    return new SqliteAdapter();
  }
  override createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  override createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
