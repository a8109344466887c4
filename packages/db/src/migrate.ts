import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Dialect } from './dialect.js';

/**
 * Loads the forward-only migrations of one dialect from `migrations/<dialect>/NNN_name.ts`.
 * Each area of the product adds its own numbered file; nothing needs registering.
 */
class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  folder(): string {
    return fileURLToPath(new URL(`./migrations/${this.dialect === 'sqlite' ? 'sqlite' : 'pg'}/`, import.meta.url));
  }
  /** The migration files' names, without extension, in order. */
  async names(): Promise<string[]> {
    return (await readdir(this.folder()))
      .filter((n) => /^\d{3}_[a-z0-9_]+\.(ts|js)$/.test(n))
      .map((n) => n.replace(/\.(ts|js)$/, ''))
      .sort();
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = new Map((await readdir(this.folder())).map((n) => [n.replace(/\.(ts|js)$/, ''), n]));
    const migrations: Record<string, Migration> = {};
    for (const name of await this.names()) {
      migrations[name] = (await import(pathToFileURL(join(this.folder(), files.get(name)!)).href)) as Migration;
    }
    return migrations;
  }
}

/** True when every migration file has been applied already (the usual start): nothing to load or run. */
async function upToDate(db: Kysely<any>, provider: FolderMigrationProvider): Promise<boolean> {
  try {
    const applied = new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name));
    return (await provider.names()).every((n) => applied.has(n));
  } catch {
    return false; // no migration table yet: a new database
  }
}

/** Applies every pending migration; running it twice is a no-op. Throws on the first failure. */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Areas add numbered migrations in parallel branches of work; a data folder that already ran a later number
  // must still accept an earlier one that lands afterwards.
  const provider = new FolderMigrationProvider(dialect);
  // Loading every migration module on each start costs more than a short command's own work.
  if (await upToDate(db, provider)) return;
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
