import { sql, type Kysely } from 'kysely';

/** Migration 034: the agent's file settings (A1) recorded with each traced call, as seed 000 shows them in the trace. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table tool_calls add column file_settings text').execute(db);
}
