import { sql, type Kysely } from 'kysely';

/**
 * Parse attempts of an understood file's current version and a stable code for why it failed, so a file that
 * kills its parser is given up after a few attempts instead of being retried at every start (issue 9).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table doc_assets add column attempts integer not null default 0`.execute(db);
  await sql`alter table doc_assets add column error_code text`.execute(db);
}
