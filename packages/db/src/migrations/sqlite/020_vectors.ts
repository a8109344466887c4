import { sql, type Kysely } from 'kysely';
import { vectorStatements } from '../vectors-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of vectorStatements('sqlite')) await sql.raw(s).execute(db);
}
