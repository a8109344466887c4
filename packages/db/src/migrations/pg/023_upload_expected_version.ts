import { sql, type Kysely } from 'kysely';

/** Migration 023: the version a direct upload replaces (its `expectedVersion`), checked when it is finished. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table upload_reservations add column expected_version integer`.execute(db);
}
