/**
 * Direct uploads sent in parts (migration 022): the part size and the blob store's token on the reservation,
 * and one row per part that arrived whole, so an interrupted upload resumes with the parts it lacks.
 */
export function uploadPartsStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return [
    `alter table upload_reservations add column part_size ${big}`,
    `alter table upload_reservations add column parts_token text`,
    `create table upload_parts (upload_id text not null references upload_reservations(id) on delete cascade,
      part_number integer not null, size ${big} not null, etag text not null, primary key (upload_id, part_number))`,
  ];
}
