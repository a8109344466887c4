import { sql, type Kysely } from 'kysely';

/**
 * Migration 048: the ranking function runs without JIT compilation.
 *
 * `stoa_search_rank` runs a few small statements per search, planned once per connection (migration 040). When a
 * plan's estimated cost passes `jit_above_cost` (100,000 by default), PostgreSQL compiles its expressions with LLVM
 * on each execution: ≈ 40 ms for a search of one or two, seen when a plan carried a penalty cost (bench/README.md,
 * "Rare terms in buckets"). At 100,000 pages main's plans stayed under it (JIT on and off measured alike, "100,000
 * pages on PostgreSQL"), so this is a guard: a search never gains from compiling its plan. A setting on the
 * function alone: the rest of an installation's queries keep the server's own setting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The name alone: migration 040 left one function of that name.
  await sql`alter function stoa_search_rank set jit = off`.execute(db);
}
