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

/**
 * mulberry32, a seeded PRNG: tests and benchmarks build the same corpus and queries every run.
 *
 * @example
 * const rand = seededRandom(42); rand() // 0.6011…
 */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
