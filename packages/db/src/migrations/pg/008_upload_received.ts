import { sql, type Kysely } from 'kysely';

/** The hash the server computed while receiving a direct upload's bytes, so finishing it need not read them again. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table upload_reservations add column received_sha256 text`.execute(db);
}
