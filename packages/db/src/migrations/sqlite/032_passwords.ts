import { sql, type Kysely } from 'kysely';
import { passwordStatements } from '../sign-in-sql.js';

/** Migration 032: people's passwords, as argon2id hashes (see sign-in-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of passwordStatements()) await sql.raw(s).execute(db);
}
