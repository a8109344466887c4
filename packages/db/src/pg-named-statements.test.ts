import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from './create-db.js';
import { namedStatementsPool } from './pg-named-statements.js';
import { createTestDb, testDbKinds } from './test-db.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A fresh database and a Kysely on it through namedStatementsPool, one connection (so its session is the one inspected). */
async function single(max?: number) {
  const t = await createTestDb('postgres');
  await t.db.close();
  cleanups.push(t.cleanup);
  const pool = new pg.Pool({ connectionString: t.url, max: 1 });
  // A connection the server ends (the database dropped `with (force)`) is reported here, not thrown at the run.
  pool.on('error', () => undefined);
  const k = new Kysely<any>({ dialect: new PostgresDialect({ pool: namedStatementsPool(pool, max) }) });
  cleanups.push(() => k.destroy());
  await sql`create table t (id integer primary key, name text not null)`.execute(k);
  await sql`insert into t values (1, 'one'), (2, 'two')`.execute(k);
  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(k)).rows
      .map((r) => r.statement)
      .filter((s) => !s.includes('pg_prepared_statements'));
  return { k, url: t.url!, prepared };
}

describe.skipIf(!testDbKinds().includes('postgres'))('PostgreSQL named prepared statements', () => {
  it('prepares a statement once per connection and runs it again by name', async () => {
    const { k, prepared } = await single();
    const byId = (id: number) => k.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'one' });
    expect(await byId(2)).toEqual({ name: 'two' });
    await k.transaction().execute(async (trx) => {
      expect(await trx.selectFrom('t').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'one' });
    });
    const texts = await prepared();
    expect(texts.filter((s) => s.startsWith('select "name" from "t"'))).toHaveLength(1);
    expect(texts.some((s) => /^begin|^commit/i.test(s))).toBe(false);
  });

  it('leaves pattern matches and the search tables unnamed, planned with their parameters', async () => {
    const { k, prepared } = await single();
    await sql`create table search_terms (term text primary key)`.execute(k);
    await k.selectFrom('t').select('id').where('name', 'like', 'o%').execute();
    await k.selectFrom('search_terms').select('term').where('term', '=', 'x').execute();
    await k.selectFrom('t').select('id').where('id', '=', 1).execute();
    expect((await prepared()).filter((s) => s.startsWith('select'))).toEqual(['select "id" from "t" where "id" = $1']);
  });

  it('names at most `max` statements per connection and sends the rest unnamed', async () => {
    const { k, prepared } = await single(2);
    for (let n = 0; n < 5; n++) await sql`select ${n}::int + ${sql.lit(n)} as x`.execute(k);
    expect((await prepared()).length).toBeLessThanOrEqual(2);
    // Unnamed ones still answer correctly.
    expect((await sql<{ x: number }>`select ${4}::int + ${sql.lit(4)} as x`.execute(k)).rows[0]?.x).toBe(8);
  });

  it('keeps working when the schema changes: through this pool, and from another connection', async () => {
    const { k, url } = await single();
    const star = async (q: Kysely<any> = k) => (await q.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst()) as Record<string, unknown>;
    expect(await star()).toEqual({ id: 1, name: 'one' });
    expect(await k.transaction().execute((trx) => star(trx))).toEqual({ id: 1, name: 'one' });
    await sql`alter table t add column a text default 'a'`.execute(k); // a migration through this server
    // First inside a transaction, where a stale statement could not be sent again: the DDL retired its name.
    expect(await k.transaction().execute((trx) => star(trx))).toEqual({ id: 1, name: 'one', a: 'a' });
    expect(await star()).toEqual({ id: 1, name: 'one', a: 'a' });

    const other = new pg.Client({ connectionString: url }); // another server migrating the same database
    await other.connect();
    await other.query(`alter table t add column b text default 'b'`);
    await other.end();
    expect(await star()).toEqual({ id: 1, name: 'one', a: 'a', b: 'b' });
    expect(await k.transaction().execute((trx) => star(trx))).toEqual({ id: 1, name: 'one', a: 'a', b: 'b' });
  });

  it('is what openDb uses', async () => {
    const t = await createTestDb('postgres');
    await t.db.close();
    cleanups.push(t.cleanup);
    const db = await openDb({ kind: 'postgres', url: t.url!, poolSize: 1 });
    cleanups.push(() => db.close());
    await db.kysely.selectFrom('organizations').select('id').where('id', '=', 'x').execute();
    const rows = (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db.kysely)).rows;
    expect(rows.some((r) => r.statement.startsWith('select "id" from "organizations"'))).toBe(true);
  });
});
