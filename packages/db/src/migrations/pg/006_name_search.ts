import { sql, type Kysely } from 'kysely';

/**
 * Name search index (F7, core files/list-files.ts findFiles): a pg_trgm GIN index on `files.name_lower`,
 * which PostgreSQL uses for findFiles' `name_lower LIKE '%…%'` as it is, so the query and its results do not
 * change. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension (PostgreSQL 13+): a database
 * owner may create it. Where it is not installed, the migration leaves search as a scan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const available = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (!available.rows[0]?.n) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index files_name_trgm on files using gin (name_lower gin_trgm_ops)`.execute(db);
}
