import { sql, type Kysely } from 'kysely';

/**
 * The change feed (B7): one row per file written, moved or deleted, numbered in commit order, so an agent asks
 * "what changed since cursor N". Rows are written in the change's own transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table file_changes (
    seq bigserial primary key,
    project_id text not null,
    kind text not null,
    path text not null,
    from_path text,
    version integer not null,
    size bigint not null,
    at text not null
  )`.execute(db);
  await sql`create index file_changes_project_seq on file_changes (project_id, seq)`.execute(db);
}
