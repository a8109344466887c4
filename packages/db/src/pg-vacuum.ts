import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/** What one maintenance pass did: the tables vacuumed (and analyzed with it) and those only analyzed. */
export interface Maintenance {
  vacuumed: string[];
  analyzed: string[];
}

/** `auto` (the default): Stoa vacuums its tables only where the server's autovacuum is off; `off`: never. */
export type VacuumMode = 'auto' | 'off';

interface DueTable {
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * Vacuums and analyzes this database's tables where PostgreSQL's autovacuum would have and does not run
 * (decision 0036). PostgreSQL hands the space of an updated or deleted row back to later writes only once the
 * table is vacuumed; a server whose autovacuum is off (as a CI server's often is) keeps every old version of
 * every search block, outbox row and file row, so the files grow without bound and the planner works from
 * statistics of the day the tables were empty. Where autovacuum is on, this does nothing.
 *
 * The thresholds are the server's own autovacuum settings, or the table's where it sets its own (a table is due
 * once its dead rows pass `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows`, or its inserted
 * rows the insert thresholds, or its changed rows the analyze thresholds), read from the statistics PostgreSQL
 * keeps anyway.
 * `VACUUM` takes a lock that reads and writes do not wait for; `skip_locked` passes over a table another server
 * (or a migration) is holding, so several servers on one database never queue behind each other.
 *
 * @example
 * const done = await vacuumWhereDue(db.kysely); // { vacuumed: ['search_blocks'], analyzed: [] }
 */
export async function vacuumWhereDue(kysely: Kysely<DB>): Promise<Maintenance> {
  // One connection for the check and the statements: VACUUM cannot run inside a transaction, and a pooled query
  // outside one is its own.
  return kysely.connection().execute(async (db) => {
    const due = await sql<DueTable>`
      with t as (
        select current_setting('autovacuum_vacuum_threshold')::float8 as vt,
          current_setting('autovacuum_vacuum_scale_factor')::float8 as vs,
          current_setting('autovacuum_vacuum_insert_threshold')::float8 as it,
          current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as "is",
          current_setting('autovacuum_analyze_threshold')::float8 as at,
          current_setting('autovacuum_analyze_scale_factor')::float8 as "as"),
      d as (
        select s.relname::text as name,
          s.n_dead_tup > r.vt + r.vs * greatest(c.reltuples, 0)
            or (r.it >= 0 and s.n_ins_since_vacuum > r.it + r."is" * greatest(c.reltuples, 0)) as vacuum,
          s.n_mod_since_analyze > r.at + r."as" * greatest(c.reltuples, 0) as "analyze"
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid cross join t
          -- A table's own storage parameters (ALTER TABLE … SET (autovacuum_…)) override the server's, as they do
          -- for autovacuum; a table with autovacuum_enabled = false is left alone.
          cross join lateral (
            select coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_vacuum_threshold')::float8, t.vt) as vt,
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_vacuum_scale_factor')::float8, t.vs) as vs,
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_vacuum_insert_threshold')::float8, t.it) as it,
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_vacuum_insert_scale_factor')::float8, t."is") as "is",
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_analyze_threshold')::float8, t.at) as at,
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_analyze_scale_factor')::float8, t."as") as "as",
              coalesce(max(o.option_value) filter (where o.option_name = 'autovacuum_enabled')::boolean, true) as enabled
            from pg_options_to_table(c.reloptions) o) r
        where s.schemaname = current_schema() and current_setting('autovacuum') = 'off' and r.enabled)
      select * from d where vacuum or "analyze" order by name`.execute(db);
    const done: Maintenance = { vacuumed: [], analyzed: [] };
    if (due.rows.length === 0) return done;
    // Paced as autovacuum paces itself (it sleeps once it has touched its cost limit's worth of pages), so that a
    // vacuum of a large table does not take the disk from the requests beside it.
    await sql`select set_config('vacuum_cost_delay', current_setting('autovacuum_vacuum_cost_delay'), false),
      set_config('vacuum_cost_limit', case when current_setting('autovacuum_vacuum_cost_limit') = '-1'
        then current_setting('vacuum_cost_limit') else current_setting('autovacuum_vacuum_cost_limit') end, false)`.execute(db);
    try {
      for (const table of due.rows) {
        if (table.vacuum) {
          await sql`vacuum (skip_locked, analyze) ${sql.id(table.name)}`.execute(db);
          done.vacuumed.push(table.name);
        } else {
          await sql`analyze (skip_locked) ${sql.id(table.name)}`.execute(db);
          done.analyzed.push(table.name);
        }
      }
    } finally {
      // The connection goes back to the pool as it came.
      await sql`reset vacuum_cost_delay`.execute(db);
      await sql`reset vacuum_cost_limit`.execute(db);
    }
    return done;
  });
}
