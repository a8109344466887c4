import { sql, type Kysely } from 'kysely';
import { membershipStatements } from '../membership-sql.js';

/** Migration 028: suspended agents and expiring sessions (see membership-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of membershipStatements()) await sql.raw(s).execute(db);
}
