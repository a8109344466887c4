import { sql, type Kysely } from 'kysely';
import { trashStatements } from '../trash-sql.js';

/** Migration 035: the trash of deleted files and folders (see trash-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of trashStatements('integer')) await sql.raw(s).execute(db);
}
