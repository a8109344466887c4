import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from './dialect.js';
import { cachingSqliteDatabase } from './statement-cache.js';
import { createTestDb } from './test-db.js';

interface T {
  t: { id: number; name: string };
}

const open: Array<Kysely<T>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((k) => k.destroy()));
});

async function kyselyWithCache(max?: number) {
  const database = cachingSqliteDatabase(new Database(':memory:'), max);
  const k = new Kysely<T>({ dialect: new ImmediateSqliteDialect({ database }) });
  open.push(k);
  await sql`create table t (id integer primary key, name text not null)`.execute(k);
  await k
    .insertInto('t')
    .values([1, 2, 3].map((id) => ({ id, name: `n${id}` })))
    .execute();
  return { k, stats: database.stats };
}

describe('SQLite prepared statement cache', () => {
  it('prepares a statement once and runs it again from the cache, whatever its parameters', async () => {
    const { k, stats } = await kyselyWithCache();
    const byId = (id: number) => k.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
    const before = stats();
    expect(await byId(1)).toEqual({ name: 'n1' });
    expect(await byId(2)).toEqual({ name: 'n2' });
    expect(await byId(3)).toEqual({ name: 'n3' });
    expect(stats().prepared - before.prepared).toBe(1);
    expect(stats().hits - before.hits).toBe(2);
    // Inside transactions too (begin immediate / commit are statements like any other).
    for (let i = 0; i < 3; i++)
      await k.transaction().execute((trx) =>
        trx
          .updateTable('t')
          .set({ name: `m${i}` })
          .where('id', '=', 1)
          .execute(),
      );
    expect((await byId(1))?.name).toBe('m2');
    expect(stats().prepared - before.prepared).toBe(6); // + begin immediate, savepoint, the update, release, commit (dialect.ts)
  });

  it('holds at most its bound, evicting the least recently used', async () => {
    const { k, stats } = await kyselyWithCache(3);
    const q = (n: number) => sql`select ${sql.lit(n)} as n`.execute(k);
    await q(1);
    await q(2);
    await q(3);
    await q(1); // 1 is now the most recent: 2 goes first
    const p = stats().prepared;
    await q(4);
    expect(stats().size).toBe(3);
    await q(1);
    await q(3);
    expect(stats().prepared).toBe(p + 1); // 1 and 3 were still cached
    await q(2);
    expect(stats().prepared).toBe(p + 2); // 2 was evicted and is prepared again
    expect(stats().size).toBe(3);
  });

  it('does not hand out a statement that is busy (an iteration still open) but a fresh one', () => {
    const raw = new Database(':memory:');
    const database = cachingSqliteDatabase(raw);
    try {
      raw.exec('create table t (id integer primary key); insert into t (id) values (1), (2)');
      const first = database.prepare('select id from t order by id');
      const open = first.iterate([]);
      expect(open.next().value).toEqual({ id: 1 });
      const during = database.prepare('select id from t order by id');
      expect(during).not.toBe(first);
      open.return?.();
      expect(database.prepare('select id from t order by id')).toBe(first);
      expect(database.stats()).toMatchObject({ prepared: 2, hits: 1, size: 1 });
    } finally {
      database.close();
    }
  });

  it('keeps working across schema changes: columns added, tables dropped and made again', async () => {
    const { k, stats } = await kyselyWithCache();
    const star = () => sql<Record<string, unknown>>`select * from t where id = 1`.execute(k);
    expect((await star()).rows).toEqual([{ id: 1, name: 'n1' }]);
    await sql`alter table t add column extra text not null default 'x'`.execute(k);
    const prepared = stats().prepared;
    expect((await star()).rows).toEqual([{ id: 1, name: 'n1', extra: 'x' }]);
    expect(stats().prepared).toBe(prepared); // the same cached statement, prepared again by SQLite itself
    await sql`drop table t`.execute(k);
    await expect(star()).rejects.toThrow(/no such table/);
    await sql`create table t (id integer primary key, other text)`.execute(k);
    await sql`insert into t (id, other) values (1, 'o')`.execute(k);
    expect((await star()).rows).toEqual([{ id: 1, other: 'o' }]);
  });

  it('through openDb: statements run before a migration still run after it', async () => {
    const { db, cleanup } = await createTestDb('sqlite');
    try {
      const now = new Date().toISOString();
      await db.kysely.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
      const read = () => db.kysely.selectFrom('organizations').selectAll().where('id', '=', 'org_a').executeTakeFirstOrThrow();
      expect((await read()).name).toBe('A');
      // A later migration adding a column, as they do.
      await sql`alter table organizations add column motto text`.execute(db.kysely);
      expect(await read()).toMatchObject({ id: 'org_a', name: 'A', motto: null });
    } finally {
      await cleanup();
    }
  });
});
