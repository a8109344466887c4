import { sql, type Kysely } from 'kysely';
import { outboxStatements } from '../outbox-sql.js';

/** Migration 037: the derived-data outbox, drained right after each commit (see outbox-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of outboxStatements('sqlite')) await sql.raw(s).execute(db);
}
