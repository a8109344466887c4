import { sql, type Kysely } from 'kysely';
import { fileMetadataStatements } from '../volumes-sql.js';

/** Migration 025: metadata stored with each file version (see volumes-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of fileMetadataStatements()) await sql.raw(s).execute(db);
}
