import { sql, type Kysely } from 'kysely';

/** Migration 022: direct uploads sent in parts (resumable): the part size, the store's token, and each part received. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`alter table upload_reservations add column part_size bigint`).execute(db);
  await sql.raw(`alter table upload_reservations add column parts_token text`).execute(db);
  await sql
    .raw(
      `create table upload_parts (upload_id text not null references upload_reservations(id) on delete cascade,
        part_number integer not null, size bigint not null, etag text not null, primary key (upload_id, part_number))`,
    )
    .execute(db);
}
