import { sql, type Kysely } from 'kysely';
import { foldersDavStatements } from '../folders-dav-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of foldersDavStatements()) await sql.raw(s).execute(db);
}
