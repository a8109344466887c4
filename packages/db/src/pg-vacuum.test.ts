import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type StoaDb } from './create-db.js';
import { createTestDb, testDbKinds } from './test-db.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ROWS = 3000;

/** Rewrites every row of `churn` on one connection, whose statistics PostgreSQL then publishes at once. */
async function rewriteAll(k: Kysely<any>, round: number): Promise<void> {
  await k.connection().execute(async (c) => {
    await sql`update churn set body = repeat(${String(round % 10)}, 200)`.execute(c);
    await sql`select pg_stat_force_next_flush()`.execute(c);
  });
}

const sizeOf = async (k: Kysely<any>) => Number((await sql<{ size: string }>`select pg_relation_size('churn') as size`.execute(k)).rows[0]!.size);

async function churnTable(db: StoaDb): Promise<Kysely<any>> {
  const k = db.kysely as unknown as Kysely<any>;
  await k.connection().execute(async (c) => {
    await sql`create table churn (id integer primary key, body text not null) with (fillfactor = 100)`.execute(c);
    await sql`insert into churn select g, repeat('x', 200) from generate_series(1, ${ROWS}) g`.execute(c);
    await sql`select pg_stat_force_next_flush()`.execute(c);
  });
  return k;
}

describe.skipIf(!testDbKinds().includes('postgres'))('database upkeep on PostgreSQL (decision 0036)', () => {
  it('vacuums a table whose rewritten rows passed the thresholds, so its next rewrite reuses the space', async () => {
    const t = await createTestDb('postgres');
    cleanups.push(t.cleanup);
    const { rows } = await sql<{ on: string }>`select current_setting('autovacuum') as on`.execute(t.db.kysely);
    const k = await churnTable(t.db);
    await rewriteAll(k, 1);
    const before = await sizeOf(k);
    const done = await t.db.maintain();
    if (rows[0]!.on === 'on') {
      // The server's autovacuum does this; Stoa leaves it alone.
      expect(done).toEqual({ vacuumed: [], analyzed: [] });
      return;
    }
    expect(done.vacuumed).toContain('churn');
    // What was vacuumed is no longer due, until it changes again.
    expect((await t.db.maintain()).vacuumed).not.toContain('churn');
    for (let round = 2; round <= 4; round++) {
      await rewriteAll(k, round);
      expect((await t.db.maintain()).vacuumed).toContain('churn');
    }
    // Without the vacuums, each rewrite would add half the table's size again (measured: 1.5× per round).
    expect(await sizeOf(k)).toBeLessThanOrEqual(before * 1.1);
  });

  it('does nothing with vacuum off, and nothing on a table under its thresholds', async () => {
    const t = await createTestDb('postgres');
    cleanups.push(t.cleanup);
    const k = await churnTable(t.db);
    // The new table's rows are due (autovacuum's insert threshold); after that pass, ten changed rows are not.
    expect((await t.db.maintain()).vacuumed).toContain('churn');
    await k.connection().execute(async (c) => {
      await sql`update churn set body = 'y' where id <= 10`.execute(c);
      await sql`select pg_stat_force_next_flush()`.execute(c);
    });
    expect((await t.db.maintain()).vacuumed).not.toContain('churn');
    await rewriteAll(k, 1);
    const off = await openDb({ kind: 'postgres', url: t.url!, poolSize: 1, vacuum: 'off' });
    cleanups.push(() => off.close());
    expect(await off.maintain()).toEqual({ vacuumed: [], analyzed: [] });
    expect((await t.db.maintain()).vacuumed).toContain('churn');
  });

  it('follows a table’s own autovacuum settings over the server’s, and leaves a table with autovacuum disabled alone', async () => {
    const t = await createTestDb('postgres');
    cleanups.push(t.cleanup);
    const k = await churnTable(t.db);
    expect((await t.db.maintain()).vacuumed).toContain('churn');
    const touchTen = () =>
      k.connection().execute(async (c) => {
        await sql`update churn set body = 'z' where id <= 10`.execute(c);
        await sql`select pg_stat_force_next_flush()`.execute(c);
      });
    // Ten changed rows of 3,000 are under the server's thresholds (previous test), not under the table's own.
    await sql`alter table churn set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5)`.execute(k);
    await touchTen();
    const { rows } = await sql<{ on: string }>`select current_setting('autovacuum') as on`.execute(k);
    if (rows[0]!.on === 'on') return;
    expect((await t.db.maintain()).vacuumed).toContain('churn');
    await sql`alter table churn set (autovacuum_enabled = false)`.execute(k);
    await rewriteAll(k, 1);
    expect(await t.db.maintain()).toEqual({ vacuumed: [], analyzed: [] });
  });
});

it('database upkeep is a no-op on SQLite, which reuses a deleted row’s pages at once', async () => {
  const t = await createTestDb('sqlite');
  cleanups.push(t.cleanup);
  expect(await t.db.maintain()).toEqual({ vacuumed: [], analyzed: [] });
});
