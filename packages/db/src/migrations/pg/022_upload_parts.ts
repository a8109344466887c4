import { sql, type Kysely } from 'kysely';
import { uploadPartsStatements } from '../upload-parts-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of uploadPartsStatements('postgres')) await sql.raw(s).execute(db);
}
