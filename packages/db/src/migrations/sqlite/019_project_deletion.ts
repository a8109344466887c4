import { sql, type Kysely } from 'kysely';
import { projectDeletionStatements } from '../project-deletion-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of projectDeletionStatements('integer primary key autoincrement')) await sql.raw(s).execute(db);
}
