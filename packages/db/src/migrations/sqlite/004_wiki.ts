import { sql, type Kysely } from 'kysely';
import { wikiStatements } from '../wiki-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of wikiStatements('sqlite')) await sql.raw(s).execute(db);
}
