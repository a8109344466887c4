import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type DbOptions, type StoaDb } from './create-db.js';

/** The back ends a database test runs on: SQLite always, PostgreSQL too when STOA_TEST_PG=1 (as in .ci/run). */
export function testDbKinds(env: NodeJS.ProcessEnv = process.env): Array<'sqlite' | 'postgres'> {
  return env.STOA_TEST_PG === '1' ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh, empty, migrated database for one test: a temp SQLite file, or a new PostgreSQL database that
 * `cleanup()` drops, so runs never see each other's data.
 */
export async function createTestDb(
  kind: 'sqlite' | 'postgres',
  opts: DbOptions = {},
): Promise<{ db: StoaDb; cleanup: () => Promise<void>; url?: string; file?: string }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'stoa-db-'));
    const file = join(dir, 'stoa.db');
    const db = await openDb({ kind: 'sqlite', file }, opts);
    return {
      db,
      file,
      cleanup: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `stoa_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = pgAdminUrl().replace(/\/[^/]*$/, `/${name}`);
  const db = await openDb({ kind: 'postgres', url, poolSize: 5 });
  return {
    db,
    url,
    cleanup: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: pgAdminUrl() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The server test databases are created on (read when a test asks, not at import). */
function pgAdminUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.STOA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}
