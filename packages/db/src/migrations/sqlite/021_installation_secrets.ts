import { sql, type Kysely } from 'kysely';

/** Migration 021: secrets of the installation, made on first use (the key that signs file links). */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`create table installation_secrets (name text primary key, value text not null, created_at text not null)`).execute(db);
}
