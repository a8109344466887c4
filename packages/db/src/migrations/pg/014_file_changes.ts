import { sql, type Kysely } from 'kysely';
import { fileChangeStatements } from '../file-changes-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of fileChangeStatements('postgres')) await sql.raw(s).execute(db);
}
