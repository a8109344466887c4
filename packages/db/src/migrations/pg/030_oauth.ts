import { sql, type Kysely } from 'kysely';
import { oauthStatements } from '../oauth-sql.js';

/** Migration 030: OAuth clients, grants and their hashed credentials (see oauth-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of oauthStatements()) await sql.raw(s).execute(db);
}
