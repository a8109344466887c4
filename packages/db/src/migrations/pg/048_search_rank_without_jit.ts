import { sql, type Kysely } from 'kysely';

/**
 * Migration 048: the ranking function runs without JIT compilation.
 *
 * `stoa_search_rank` runs a few small statements per search, planned once per connection (migration 040). The
 * planner's estimate for the statements that read a frequent word's blocks can pass `jit_above_cost` (100,000 by
 * default) as the index grows, and PostgreSQL then compiles the plan's expressions with LLVM on each execution —
 * tens of milliseconds for a search that takes one or two. JIT pays off for long analytic queries, not here.
 * A setting on the function alone: the rest of an installation's queries keep the server's own setting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      'alter function stoa_search_rank(text, text[], text[], text[], int8[], text, text, text, int, int, int, float8, float8, float8, float8, float8, float8, boolean) set jit = off',
    )
    .execute(db);
}
