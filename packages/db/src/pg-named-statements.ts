import type { PostgresPool, PostgresPoolClient } from 'kysely';

interface PgClient {
  query(config: { name?: string; text: string; values?: unknown[] } | string | object, values?: unknown[]): Promise<unknown>;
  release(destroy?: boolean): void;
}

const TX_CONTROL = /^\s*(begin|start\s+transaction|commit|end|rollback|abort|savepoint|release)\b/i;
const DDL = /^\s*(create|alter|drop|truncate|comment|grant|revoke)\b/i;
/**
 * Statements left unnamed, so PostgreSQL plans each call with its parameters as before: pattern matches (a plan
 * made without the pattern cannot use an index for a prefix) and the search tables (postings of words whose
 * frequencies differ by orders of magnitude, where the best plan depends on the words asked for).
 */
const PLAN_BY_PARAMETERS = /\b(i?like|similar\s+to)\b|~|search_/i;

/**
 * A pg pool whose connections keep the statements Kysely sends as named prepared statements (pg's `name`), so
 * PostgreSQL parses each of them once per connection and, once it has seen that a generic plan does as well as
 * planning each call, plans it once too (issue 30; bench/README.md: about 40 % less PostgreSQL CPU for a PUT's
 * statements, nearly all of it from the plans). At most `max` names per connection; statements past that, and
 * those whose plan should depend on their parameters (PLAN_BY_PARAMETERS), are sent unnamed, as before.
 *
 * Schema changes: a named statement whose result columns change (`select *` after a column was added) fails in
 * PostgreSQL with "cached plan must not change result type". DDL sent through this pool (migrations, pgvector's
 * column) therefore retires every name, so each is prepared afresh on its next use; and when another server
 * changed the schema, the failed statement's name is retired on every connection and the statement is sent again
 * at once — unless it ran inside a transaction, which PostgreSQL has already aborted: that one transaction fails,
 * and the next runs on a fresh statement.
 *
 * @example
 * const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementsPool(new pg.Pool({ connectionString })) }) });
 */
export function namedStatementsPool(pool: { connect(): Promise<unknown>; end(): Promise<void> }, max = 256): PostgresPool {
  /** Names are stamped when given; one given before DDL, or before its statement was found stale, is not used again. */
  let stamp = 0;
  let retiredBefore = 0;
  const staleBefore = new Map<string, number>();
  const wrapped = new WeakMap<object, PostgresPoolClient>();
  let connections = 0;

  function wrap(client: PgClient): PostgresPoolClient {
    const id = ++connections;
    const names = new Map<string, { name: string; at: number }>();
    let counter = 0;
    let inTransaction = false;

    function nameFor(text: string): string | undefined {
      const known = names.get(text);
      if (known && known.at > retiredBefore && known.at > (staleBefore.get(text) ?? 0)) return known.name;
      if (!known && names.size >= max) return undefined;
      const name = `stoa_${id}_${++counter}`;
      names.set(text, { name, at: ++stamp });
      return name;
    }

    async function run(text: string, values: readonly unknown[]): Promise<unknown> {
      const params = [...values];
      if (TX_CONTROL.test(text)) {
        const result = await client.query(text, params);
        if (/^\s*(begin|start)/i.test(text)) inTransaction = true;
        else if (/^\s*(commit|end|rollback|abort)\b/i.test(text) && !/^\s*rollback\s+to\b/i.test(text)) inTransaction = false;
        return result;
      }
      if (DDL.test(text)) {
        try {
          return await client.query(text, params);
        } finally {
          retiredBefore = ++stamp;
        }
      }
      const name = PLAN_BY_PARAMETERS.test(text) ? undefined : nameFor(text);
      if (name === undefined) return client.query(text, params);
      try {
        return await client.query({ name, text, values: params });
      } catch (err) {
        if (!isStalePlan(err)) throw err;
        // Retire this statement's name on every connection; prepared again on its next use.
        staleBefore.set(text, ++stamp);
        names.delete(text);
        if (inTransaction) throw err;
        return client.query(text, params);
      }
    }
    // A cursor (Kysely's streaming) is handed over as it is: pg returns it synchronously, not as a promise.
    const query = (text: unknown, values?: readonly unknown[]): unknown =>
      typeof text === 'string' && values !== undefined ? run(text, values) : client.query(text as object);
    return {
      query: query as PostgresPoolClient['query'],
      release: (destroy?: boolean) => {
        // A connection that ended aborted still has its names; a destroyed one takes them with it.
        if (destroy) names.clear();
        inTransaction = false;
        client.release(destroy);
      },
    };
  }

  return {
    async connect() {
      const client = (await pool.connect()) as PgClient;
      let w = wrapped.get(client);
      if (!w) wrapped.set(client, (w = wrap(client)));
      return w;
    },
    end: () => pool.end(),
  };
}

/** PostgreSQL refused a prepared statement whose result columns changed since it was planned. */
function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; routine?: unknown; message?: unknown };
  return e?.code === '0A000' && (e.routine === 'RevalidateCachedQuery' || /cached plan must not change result type/.test(String(e.message)));
}
