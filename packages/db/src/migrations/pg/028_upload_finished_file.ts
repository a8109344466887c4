import { sql, type Kysely } from 'kysely';

/**
 * Migration 028: what finishing a direct upload answered (the file, as JSON), so finishing it again — after a
 * crash lost the answer, or from a second client — answers the same instead of failing (issue 27).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table upload_reservations add column finished_file text`.execute(db);
}
