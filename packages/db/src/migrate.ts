import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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
  async getMigrations(): Promise<Record<string, Migration>> {
    const folder = fileURLToPath(new URL(`./migrations/${this.dialect === 'sqlite' ? 'sqlite' : 'pg'}/`, import.meta.url));
    const names = (await readdir(folder)).filter((n) => /^\d{3}_[a-z0-9_]+\.(ts|js)$/.test(n)).sort();
    const migrations: Record<string, Migration> = {};
    for (const name of names) {
      const mod = (await import(pathToFileURL(join(folder, name)).href)) as Migration;
      migrations[name.replace(/\.(ts|js)$/, '')] = mod;
    }
    return migrations;
  }
}

/** Applies every pending migration; running it twice is a no-op. Throws on the first failure. */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Areas add numbered migrations in parallel branches of work; a data folder that already ran a later number
  // must still accept an earlier one that lands afterwards.
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider(dialect), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
