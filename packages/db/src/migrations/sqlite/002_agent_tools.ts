import { sql, type Kysely } from 'kysely';
import { agentToolStatements } from '../agent-tools-sql.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of agentToolStatements('sqlite')) await sql.raw(s).execute(db);
}
