/**
 * Prepared statements kept per connection (issue 30), each engine beside itself without them, in one run:
 * SQLite through Kysely with the statement cache (`cachingSqliteDatabase`) and without (every statement prepared
 * afresh, as Kysely's driver does); PostgreSQL with named prepared statements (`namedStatementsPool`) and without.
 * A unit of work is what a small PUT asks of the database: two reads, then a transaction of an update, an upsert
 * and a read. 4 concurrent workers, sides interleaved in 6 rounds; CPU per unit is this process's and, on
 * PostgreSQL, that of the server processes behind the pool's connections (steadier than throughput on a shared
 * machine).
 *
 *   node --import tsx bench/db-statements.ts            # SQLite; PostgreSQL too with STOA_TEST_PG=1 (127.0.0.1:5432)
 *   BENCH_UNITS=2000 STOA_TEST_PG=1 node --import tsx bench/db-statements.ts
 *   BENCH_CUSTOM_PLANS=1 STOA_TEST_PG=1 node --import tsx bench/db-statements.ts   # named, but planned on every call
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { fmt, ratio } from './lib/stats.js';
import { ImmediateSqliteDialect } from '../packages/db/src/dialect.js';
import { namedStatementsPool } from '../packages/db/src/pg-named-statements.js';
import { cachingSqliteDatabase } from '../packages/db/src/statement-cache.js';

const UNITS = Number(process.env.BENCH_UNITS ?? 1000);
const ROUNDS = 6;

interface Side {
  name: string;
  k: Kysely<any>;
  /** CPU ms of the database server behind this side (PostgreSQL), or 0. */
  serverCpu(): Promise<number>;
}

let fid = 0;
async function unit(k: Kysely<any>, now: string): Promise<void> {
  await k.selectFrom('projects').selectAll().where('id', '=', 'prj_a').executeTakeFirst();
  await k
    .selectFrom('files')
    .selectAll()
    .where('project_id', '=', 'prj_a')
    .where('path', '=', `d/f${fid % 100}`)
    .executeTakeFirst();
  await k.transaction().execute(async (trx) => {
    await trx
      .updateTable('projects')
      .set({ used_bytes: sql`used_bytes + 1` })
      .where('id', '=', 'prj_a')
      .execute();
    await trx
      .insertInto('blobs')
      .values({ key: `k${fid++}`, size: 1, created_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ created_at: now }))
      .execute();
    await trx.selectFrom('files').select(['id', 'version']).where('project_id', '=', 'prj_a').where('path', '=', 'x').executeTakeFirst();
  });
}

/** utime + stime of the PostgreSQL processes serving `app`'s connections, in ms (Linux /proc). */
async function backendCpu(k: Kysely<any>, app: string): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and application_name = ${app}`.execute(k);
  let ms = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // not on Linux, or the backend just ended
    }
  }
  return ms;
}

async function measure(engine: string, sides: Side[]): Promise<string[]> {
  const now = new Date().toISOString();
  await sides[0]!.k.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
  await sides[0]!.k.insertInto('projects').values({ id: 'prj_a', org_id: 'org_a', name: 'p', quota_bytes: null, created_at: now }).execute();
  for (const s of sides) for (let i = 0; i < 100; i++) await unit(s.k, now);
  const acc = sides.map(() => ({ wall: 0, cpu: 0, server: 0 }));
  for (let r = 0; r < ROUNDS; r++) {
    for (let j = 0; j < sides.length; j++) {
      const i = (j + r) % sides.length;
      const s = sides[i]!;
      const server0 = await s.serverCpu();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let n = 0; n < UNITS / 4; n++) await unit(s.k, now);
        }),
      );
      acc[i]!.wall += performance.now() - t0;
      const c = process.cpuUsage(cpu0);
      acc[i]!.cpu += (c.user + c.system) / 1000;
      acc[i]!.server += (await s.serverCpu()) - server0;
    }
  }
  const n = UNITS * ROUNDS;
  const per = acc.map((a) => ({ ops: (n / a.wall) * 1000, cpu: a.cpu / n, server: a.server / n }));
  const [a, b] = per as [(typeof per)[0], (typeof per)[0]];
  return [
    `| ${engine} | ${sides[0]!.name} | ${fmt(a.ops, 0)} | ${fmt(a.cpu, 3)} | ${engine === 'PostgreSQL' ? fmt(a.server, 3) : '–'} |`,
    `| ${engine} | ${sides[1]!.name} | ${fmt(b.ops, 0)} | ${fmt(b.cpu, 3)} | ${engine === 'PostgreSQL' ? fmt(b.server, 3) : '–'} |`,
    `| ${engine} | ratio | ${ratio(a.ops, b.ops)} | ${ratio(a.cpu, b.cpu)} | ${engine === 'PostgreSQL' ? ratio(a.server, b.server) : '–'} |`,
  ];
}

const out = [
  `${UNITS} units per side and round (2 reads + a transaction of 3 statements), 4 concurrent workers, ${ROUNDS} interleaved rounds; CPU in ms per unit.`,
  '',
  '| engine | side | units/s | client CPU | server CPU |',
  '|---|---|---|---|---|',
];
{
  const t = await createTestDb('sqlite');
  await t.db.close();
  const cached = new Database(t.file!);
  const plain = new Database(t.file!);
  for (const d of [cached, plain]) {
    d.pragma('busy_timeout = 30000');
    d.pragma('synchronous = NORMAL'); // as openDb sets it
  }
  const sides: Side[] = [
    { name: 'cached', k: new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: cachingSqliteDatabase(cached) }) }), serverCpu: async () => 0 },
    { name: 'prepared each time', k: new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: plain }) }), serverCpu: async () => 0 },
  ];
  try {
    out.push(...(await measure('SQLite', sides)));
  } finally {
    for (const s of sides) await s.k.destroy();
    await t.cleanup();
  }
}
if (testDbKinds().includes('postgres')) {
  const t = await createTestDb('postgres');
  await t.db.close();
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = (app: string) => {
    const p = new pg.Pool({ connectionString: t.url, max: 5, application_name: app });
    p.on('error', () => undefined); // the connections the database drop at the end ends
    return p;
  };
  const namedPool = pool('named');
  if (process.env.BENCH_CUSTOM_PLANS === '1') namedPool.on('connect', (c) => void c.query('set plan_cache_mode = force_custom_plan'));
  const named = new Kysely<any>({ dialect: new PostgresDialect({ pool: namedStatementsPool(namedPool) }) });
  const plain = new Kysely<any>({ dialect: new PostgresDialect({ pool: pool('plain') }) });
  try {
    out.push(
      ...(await measure('PostgreSQL', [
        { name: 'named', k: named, serverCpu: () => backendCpu(named, 'named') },
        { name: 'unnamed', k: plain, serverCpu: () => backendCpu(plain, 'plain') },
      ])),
    );
  } finally {
    await named.destroy();
    await plain.destroy();
    await t.cleanup();
  }
}
process.stdout.write(out.join('\n') + '\n');
