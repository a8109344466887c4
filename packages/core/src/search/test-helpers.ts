import { sql, type Kysely } from 'kysely';
import type { DB } from '@stoa/db';

/**
 * Inserts the organisation and project rows that search_docs references (tests and benchmarks only).
 *
 * @example
 * await seedProject(db, 'prj_test');
 */
export async function seedProject(db: Kysely<DB>, id: string): Promise<void> {
  const at = '2024-01-01T00:00:00.000Z';
  await sql`insert into organizations (id, name, created_at) values (${`org_${id}`}, ${id}, ${at})`.execute(db);
  await sql`insert into projects (id, org_id, name, created_at) values (${id}, ${`org_${id}`}, ${id}, ${at})`.execute(db);
}
