import {
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect as KyselyDialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';

/** The SQLite connection as this driver needs it: Kysely's statements, and whether a transaction is open. */
type SqliteHandle = SqliteDatabase & { readonly inTransaction: boolean };

/** The two back ends Stoa runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** Transactions one SQLite commit holds at most (group commit, decision 0033). */
const MAX_GROUP = 64;

/** Savepoint of one transaction inside a shared one. */
const MEMBER = 'stoa_member';

/** One use of the connection, from acquireConnection to releaseConnection (see GroupCommitSqliteDriver). */
class SqliteUse implements DatabaseConnection {
  /** The connection went to the next waiter early (a transaction waiting for its shared commit). */
  handedOver = false;
  /** Inside a transaction begun by a caller outside Kysely (the migrations' `begin immediate`): not ours to commit. */
  foreign = false;
  constructor(readonly db: SqliteHandle) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    const stmt = this.db.prepare(sql);
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(parameters) as R[] });
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return Promise.resolve({
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of this.db.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  }
}

/** The transactions sharing one SQLite transaction, answered when it commits. */
interface Group {
  members: Array<{ resolve(): void; reject(e: unknown): void }>;
  /** Resolves when the group has ended, committed or not (never rejects). */
  ended: Promise<void>;
  end(): void;
}

/**
 * SQLite's one connection, with group commit at the SQL level (issue 30, decision 0033).
 *
 * Kysely runs SQLite on one connection, one user at a time. Here a transaction that ends does not COMMIT: its work
 * is kept inside a SAVEPOINT of one shared `BEGIN IMMEDIATE`, and the connection goes to the next waiter; once
 * nobody waits and the event loop has run what else was ready at that moment (`setImmediate`: the transactions of
 * requests that arrived together), or after {@link MAX_GROUP} transactions, one COMMIT commits them all. Each
 * one's `commit` returns only after that COMMIT, so an operation never
 * answers before its change is committed; a transaction that fails rolls back to its own savepoint and leaves the
 * others' work in place; a COMMIT that fails (an I/O error, a full disk) fails every transaction it held. What a
 * COMMIT costs — a WAL frame for each page changed, an index page or the projects row once for all of them, and
 * the automatic checkpoint when the WAL crosses its size — is paid once per group instead of once per writer.
 *
 * Every transaction starts with `BEGIN IMMEDIATE` (the first of a group): a deferred transaction that reads and
 * then writes must upgrade its lock, and when two processes do that on one file at once SQLite fails one with
 * SQLITE_BUSY without waiting on the busy timeout; taking the write lock up front makes concurrent writers queue
 * on `busy_timeout` instead, which is what 50 parallel `stoa memory append` processes need.
 *
 * A statement outside a transaction that gets the connection while a group is open runs inside it: a read sees
 * the group's changes (committed a moment later, as a read after a commit would), a write commits with the group.
 * So before making commits durable, wait for {@link settled} (create-db.ts does). {@link whenFree} runs a
 * statement of the small-blob table between two users of the connection.
 */
export class GroupCommitSqliteDriver implements Driver {
  readonly #db: SqliteHandle;
  #held = false;
  readonly #waiting: Array<() => void> = [];
  /** Work for the moment the connection changes hands (whenFree). */
  readonly #between: Array<() => void> = [];
  #group: Group | undefined;
  #groupSize = 0;
  #commitSoon = false;

  constructor(db: SqliteHandle) {
    this.#db = db;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#held = true;
    return new SqliteUse(this.#db);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const use = connection as SqliteUse;
    this.#lost();
    if (!this.#group) {
      if (this.#db.inTransaction) {
        use.foreign = true;
      } else {
        this.#open();
      }
    }
    this.#exec(`savepoint ${MEMBER}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const use = connection as SqliteUse;
    this.#exec(`release ${MEMBER}`);
    const group = this.#group;
    if (use.foreign || !group) return;
    this.#groupSize++;
    const committed = new Promise<void>((resolve, reject) => group.members.push({ resolve, reject }));
    use.handedOver = true;
    this.#handOver();
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const use = connection as SqliteUse;
    // Handed over: the shared COMMIT failed and has already rolled back and failed every transaction in it.
    if (use.handedOver) return;
    if (this.#db.inTransaction) {
      this.#exec(`rollback to ${MEMBER}`);
      this.#exec(`release ${MEMBER}`);
    } else {
      // SQLite rolled the whole transaction back by itself (an I/O error, a full disk, …): the work of the
      // transactions that ended before this one in the group is gone with it.
      this.#lost();
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    void connection;
    void compileQuery;
    this.#exec(`savepoint "${name.replace(/"/g, '""')}"`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    void connection;
    this.#exec(`rollback to "${name.replace(/"/g, '""')}"`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    void connection;
    this.#exec(`release "${name.replace(/"/g, '""')}"`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const use = connection as SqliteUse;
    if (use.handedOver) return;
    this.#handOver();
  }

  async destroy(): Promise<void> {
    if (this.#group) this.#commit();
    this.#db.close();
  }

  /** Resolves once the transaction open now, if any, has ended (committed or not); at once when none is open. */
  settled(): Promise<void> {
    return this.#group?.ended ?? Promise.resolve();
  }

  /**
   * Runs `work` (synchronous statements) when nobody uses the connection — at once when nobody does, else at the
   * moment it changes hands — and resolves true; false, without running it, when that has not come within
   * `turns` turns of the event loop (the caller may itself be the user holding the connection). Run between
   * two transactions of a group, its statements commit with the group.
   */
  async whenFree(work: () => void, turns: number): Promise<boolean> {
    if (!this.#held) {
      // A group of its own, which the transactions of this moment join (the version that references a small
      // blob, most often): one COMMIT for both instead of one each.
      this.#lost();
      if (!this.#group && !this.#db.inTransaction) this.#open();
      work();
      this.#commitLater();
      return true;
    }
    let ran = false;
    let failed: { e: unknown } | undefined;
    const job = () => {
      ran = true;
      try {
        work();
      } catch (e) {
        failed = { e };
      }
    };
    this.#between.push(job);
    for (let turn = 0; !ran && turn < turns; turn++) await new Promise((r) => setImmediate(r));
    if (!ran) {
      this.#between.splice(this.#between.indexOf(job), 1);
      return false;
    }
    if (failed) throw failed.e;
    return true;
  }

  /**
   * The connection changes hands: queued work runs, then the next waiter goes on inside the open group; with
   * nobody waiting, the group commits once the event loop has run what else is ready now (the transactions of
   * requests that arrived together), or at once when it is full.
   */
  #handOver(): void {
    while (this.#between.length) this.#between.shift()!();
    if (this.#group && this.#groupSize >= MAX_GROUP) this.#commit();
    const next = this.#waiting.shift();
    if (next) return next();
    this.#held = false;
    this.#commitLater();
  }

  /** A group whose transaction SQLite rolled back by itself (after an I/O error, say) fails before anything joins it. */
  #lost(): void {
    if (this.#group && !this.#db.inTransaction) this.#fail(new Error('the database rolled back a shared transaction after an error; nothing of it was kept'));
  }

  #open(): void {
    this.#exec('begin immediate');
    this.#group = newGroup();
    this.#groupSize = 0;
  }

  /** Commits the open group once the event loop has run what else is ready now (see #handOver). */
  #commitLater(): void {
    if (this.#group && !this.#commitSoon) {
      this.#commitSoon = true;
      setImmediate(this.#commitNow);
    }
  }

  /** The commit of a group that nobody is adding to: at once when the connection is free, else when it is. */
  readonly #commitNow = (): void => {
    this.#commitSoon = false;
    if (!this.#group) return;
    if (this.#held) {
      this.#commitSoon = true;
      setImmediate(this.#commitNow);
    } else {
      this.#commit();
    }
  };

  #commit(): void {
    const group = this.#group!;
    try {
      this.#exec('commit');
    } catch (e) {
      try {
        if (this.#db.inTransaction) this.#exec('rollback');
      } finally {
        this.#fail(e);
      }
      return;
    }
    this.#group = undefined;
    for (const m of group.members) m.resolve();
    group.end();
  }

  #fail(e: unknown): void {
    const group = this.#group!;
    this.#group = undefined;
    for (const m of group.members) m.reject(e);
    group.end();
  }

  #exec(sql: string): void {
    this.#db.prepare(sql).run([]);
  }
}

function newGroup(): Group {
  let end!: () => void;
  const ended = new Promise<void>((r) => (end = r));
  return { members: [], ended, end };
}

/** SQLite through {@link GroupCommitSqliteDriver}. */
export class ImmediateSqliteDialect implements KyselyDialect {
  readonly driver: GroupCommitSqliteDriver;
  constructor(config: { database: SqliteHandle }) {
    this.driver = new GroupCommitSqliteDriver(config.database);
  }
  createDriver(): Driver {
    return this.driver;
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
