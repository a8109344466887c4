import { sql, type Kysely } from 'kysely';
import { passkeyStatements } from '../sign-in-sql.js';

/** Migration 033: people's passkeys and WebAuthn challenges (see sign-in-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of passkeyStatements()) await sql.raw(s).execute(db);
}
