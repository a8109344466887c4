import { sql, type Kysely } from 'kysely';

/**
 * Migration 041: small blobs kept in the database (issue 30; docs/decisions/0021-small-blobs-in-the-database.md).
 * Content by sha256 across projects, like the blob store itself: no project column, collected by the sweeper
 * by reference like any blob (the `blobs` table keeps its grace clock), never by project deletion.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`create table inline_blobs (key text primary key, size integer not null, content blob not null)`).execute(db);
}
