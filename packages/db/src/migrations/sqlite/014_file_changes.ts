import { sql, type Kysely } from 'kysely';
import { fileChangeStatements } from '../file-changes-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of fileChangeStatements('sqlite')) await sql.raw(s).execute(db);
}
