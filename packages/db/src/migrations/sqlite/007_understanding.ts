import { sql, type Kysely } from 'kysely';
import { understandingStatements } from '../understanding-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of understandingStatements('integer')) await sql.raw(s).execute(db);
}
