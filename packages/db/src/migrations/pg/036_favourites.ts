import { sql, type Kysely } from 'kysely';
import { favouritesStatements } from '../favourites-sql.js';

/** Migration 036: a person's favourites and recently opened files, folders and wiki pages (see favourites-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of favouritesStatements()) await sql.raw(s).execute(db);
}
