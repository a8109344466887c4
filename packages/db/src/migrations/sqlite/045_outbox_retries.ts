import { sql, type Kysely } from 'kysely';
import { outboxRetryStatements } from '../outbox-sql.js';

/** Migration 045: outbox rows count their failed drains and wait out a backoff (see outbox-sql.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of outboxRetryStatements()) await sql.raw(s).execute(db);
}
