import { sql, type Kysely } from 'kysely';
import { blobDigestStatements } from '../blob-digests-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of blobDigestStatements()) await sql.raw(s).execute(db);
}
