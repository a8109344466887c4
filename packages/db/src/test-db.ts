import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDb, type DbOptions, type StoaDb } from './create-db.js';

/** The back ends a database test runs on: SQLite always, PostgreSQL too when STOA_TEST_PG=1 (as in .ci/run). */
export function testDbKinds(env: NodeJS.ProcessEnv = process.env): Array<'sqlite' | 'postgres'> {
  return env.STOA_TEST_PG === '1' ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh, empty, migrated database for one test: a temp SQLite file, or a new PostgreSQL database that
 * `cleanup()` drops, so runs never see each other's data.
 *
 * Both are copies of a template migrated once per set of migrations: running every migration for each of the
 * suite's databases was a large part of its time.
 * `openDb` still runs on the copy, so a migration missing from the template would be applied there.
 */
export async function createTestDb(
  kind: 'sqlite' | 'postgres',
  opts: DbOptions = {},
): Promise<{ db: StoaDb; cleanup: () => Promise<void>; url?: string; file?: string }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'stoa-db-'));
    const file = join(dir, 'stoa.db');
    copyFileSync(await sqliteTemplate(), file);
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
  const template = await pgTemplate();
  await withAdmin(async (admin) => {
    await admin.query(`create database ${name} template ${template}`);
    // Nothing here survives a power cut on purpose: a test database is dropped at its end, and waiting for each
    // commit's WAL flush only slowed the suite.
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  });
  const url = pgAdminUrl().replace(/\/[^/]*$/, `/${name}`);
  const db = await openDb({ kind: 'postgres', url, poolSize: 5 });
  return {
    db,
    url,
    cleanup: async () => {
      await db.close();
      await withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

let sqliteTemplateFile: Promise<string> | undefined;

/**
 * A migrated SQLite file in the temp folder, named by a hash of the migrations: built by the first test process
 * that needs it (renamed into place when complete, so a reader never sees half of one) and copied for each test.
 */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const prefix = 'stoa-test-template-';
    const file = join(tmpdir(), `${prefix}${migrationsHash('sqlite')}.db`);
    if (existsSync(file)) return file;
    const dir = mkdtempSync(join(tmpdir(), 'stoa-db-template-'));
    try {
      // Closing the only connection checkpoints the WAL into the file and removes it: the file alone is the database.
      await (await openDb({ kind: 'sqlite', file: join(dir, 'template.db') })).close();
      renameSync(join(dir, 'template.db'), file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Templates of earlier migrations are of no further use.
    for (const old of readdirSync(tmpdir())) {
      if (old.startsWith(prefix) && join(tmpdir(), old) !== file) rmSync(join(tmpdir(), old), { force: true });
    }
    return file;
  })();
  return sqliteTemplateFile;
}

let pgTemplateName: Promise<string> | undefined;

/**
 * A migrated PostgreSQL database named by a hash of the migrations, built by the first test process that needs it
 * (the others wait on an advisory lock) and shared by the run and later runs while the migrations stay the same.
 */
function pgTemplate(): Promise<string> {
  pgTemplateName ??= (async () => {
    const name = `stoa_tpl_${migrationsHash('pg')}`;
    await withAdmin(async (admin) => {
      await admin.query('select pg_advisory_lock(74301)');
      try {
        const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount) return;
        // Built under another name and renamed when complete, so a process killed halfway leaves no half template.
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const url = pgAdminUrl().replace(/\/[^/]*$/, `/${building}`);
        await (await openDb({ kind: 'postgres', url, poolSize: 1 })).close();
        await admin.query(`alter database ${building} rename to ${name}`);
        // Templates of earlier migrations are of no further use, except the newest of them: another checkout's
        // run, testing other migrations against this server at the same time, may be copying it (OIDs grow).
        const stale = await admin.query<{ datname: string }>(
          `select datname from pg_database where datname like 'stoa\\_tpl\\_%' and datname <> $1 order by oid desc offset 1`,
          [name],
        );
        for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname}`).catch(() => undefined);
      } finally {
        await admin.query('select pg_advisory_unlock(74301)');
      }
    });
    return name;
  })();
  return pgTemplateName;
}

/** Sixteen hex digits of a hash over one dialect's migrations and the statement files they import. */
function migrationsHash(dialect: 'sqlite' | 'pg'): string {
  const hash = createHash('sha256');
  for (const sub of ['./migrations/', `./migrations/${dialect}/`]) {
    const folder = fileURLToPath(new URL(sub, import.meta.url));
    const files = readdirSync(folder, { withFileTypes: true }).filter((f) => f.isFile());
    for (const { name } of files.sort((a, b) => a.name.localeCompare(b.name))) hash.update(sub + name).update(readFileSync(join(folder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The server test databases are created on (read when a test asks, not at import). */
function pgAdminUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.STOA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}
