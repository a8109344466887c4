import { sql, type Kysely } from 'kysely';
import { memoryStatements } from '../memory-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of memoryStatements()) await sql.raw(s).execute(db);
}
