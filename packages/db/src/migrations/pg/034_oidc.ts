import { sql, type Kysely } from 'kysely';
import { oidcStatements } from '../sign-in-sql.js';

/** Migration 034: identities at an OpenID Connect provider and sign-ins in progress (see sign-in-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of oidcStatements()) await sql.raw(s).execute(db);
}
