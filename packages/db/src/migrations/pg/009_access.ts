import { sql, type Kysely } from 'kysely';
import { accessStatements } from '../access-sql.js';

/** Token scope and superuser flag, invitations (the access model). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of accessStatements()) await sql.raw(s).execute(db);
}
