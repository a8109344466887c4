import { sql, type Kysely } from 'kysely';
import { foundationStatements } from '../foundation-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of foundationStatements('integer')) await sql.raw(s).execute(db);
}
