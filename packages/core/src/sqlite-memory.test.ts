import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, sql } from '@stoa/db';
import { loadConfig } from './config.js';
import { openPlatform } from './open-platform.js';
import type { Platform } from './platform.js';

// SQLite's memory for reading the database file (decision 0028): a memory map of up to STOA_SQLITE_MMAP_BYTES of
// it and a page cache of STOA_SQLITE_CACHE_BYTES, as the server opens it.
const dirs: string[] = [];
const open: Platform[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serverOn(env: NodeJS.ProcessEnv): Promise<{ platform: Platform; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-sqlite-memory-'));
  dirs.push(dir);
  const platform = await openPlatform(loadConfig({ dataDir: dir, env }));
  open.push(platform);
  return { platform, dir };
}

async function pragma(platform: Platform, name: 'mmap_size' | 'cache_size'): Promise<number> {
  const r = await sql.raw<Record<string, number>>(`pragma ${name}`).execute(platform.db.kysely);
  return Number(Object.values(r.rows[0]!)[0]);
}

describe('SQLite memory settings (decision 0028)', () => {
  it('maps up to 1 GiB of the file and keeps a 16 MiB page cache by default', async () => {
    const { platform } = await serverOn({});
    expect(await pragma(platform, 'mmap_size')).toBe(2 ** 30);
    expect(await pragma(platform, 'cache_size')).toBe(-16 * 1024);
  });

  it('takes both from the environment, 0 turning the map off', async () => {
    const { platform } = await serverOn({ STOA_SQLITE_MMAP_BYTES: '0', STOA_SQLITE_CACHE_BYTES: String(64 * 2 ** 20) });
    expect(await pragma(platform, 'mmap_size')).toBe(0);
    expect(await pragma(platform, 'cache_size')).toBe(-64 * 1024);
  });

  it('refuses a value that is not a whole number of bytes, naming the setting', () => {
    expect(() => loadConfig({ dataDir: '/tmp/x', env: { STOA_SQLITE_MMAP_BYTES: '1GB' } })).toThrow(/STOA_SQLITE_MMAP_BYTES/);
    expect(() => loadConfig({ dataDir: '/tmp/x', env: { STOA_SQLITE_CACHE_BYTES: '0' } })).toThrow(/STOA_SQLITE_CACHE_BYTES/);
  });

  it('leaves a PostgreSQL configuration as it was', () => {
    const config = loadConfig({ dataDir: '/tmp/x', env: { STOA_DATABASE_URL: 'postgres://h/db', STOA_SQLITE_MMAP_BYTES: '0' } });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://h/db', poolSize: 10, vacuum: 'auto' });
  });

  it('reads through the map what was written, also what another connection wrote and a checkpoint moved into the file', async () => {
    const { platform, dir } = await serverOn({});
    const db = platform.db.kysely;
    await sql`insert into installation_secrets (name, value, created_at) values ('a', 'one', 'now')`.execute(db);
    // Another connection without the map (as `stoa` in local mode beside the server, configured otherwise)
    // writes, and a checkpoint moves it into the mapped database file: the server reads it, not a stale page.
    const other = await openDb({ kind: 'sqlite', file: join(dir, 'stoa.db'), mmapBytes: 0 });
    await sql`insert into installation_secrets (name, value, created_at) values ('b', 'two', 'now')`.execute(other.kysely);
    await sql`update installation_secrets set value = 'uno' where name = 'a'`.execute(other.kysely);
    await sql`pragma wal_checkpoint(truncate)`.execute(other.kysely);
    await other.close();
    const rows = await sql<{ name: string; value: string }>`select name, value from installation_secrets where name in ('a', 'b') order by name`.execute(db);
    expect(rows.rows).toEqual([
      { name: 'a', value: 'uno' },
      { name: 'b', value: 'two' },
    ]);
  });
});
