import { sql, type Kysely } from 'kysely';
import { volumeStatements } from '../volumes-sql.js';

/** Migration 024: volumes beyond projects (see volumes-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of volumeStatements()) await sql.raw(s).execute(db);
}
