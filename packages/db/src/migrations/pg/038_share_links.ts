import { sql, type Kysely } from 'kysely';

/**
 * Migration 038: expiring share links of a file (issue 31): anyone with the link downloads the file until it
 * expires or is revoked. Only a hash of the link's secret is kept, so the table cannot be read for working links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create table share_links (
        id text primary key,
        project_id text not null,
        file_id text not null,
        token_hash text not null unique,
        created_by text not null,
        created_at text not null,
        expires_at text not null,
        revoked_at text
      )`,
    )
    .execute(db);
  await sql.raw('create index share_links_file on share_links (project_id, file_id)').execute(db);
}
