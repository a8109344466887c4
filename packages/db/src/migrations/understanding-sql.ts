/**
 * File understanding (R6): one asset per file, its parse status and chunks. Chunks of earlier versions are
 * kept (bounded) so citations can be validated after the file changes (B4).
 */
export function understandingStatements(big: 'integer' | 'bigint'): string[] {
  return [
    `create table doc_assets (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      file_id text not null, path text not null, version integer not null, sha256 text not null,
      parse_mode text not null, status text not null, vector_status text not null, error text,
      chunk_count integer not null default 0, text_chars ${big} not null default 0,
      created_at text not null, updated_at text not null, deleted_at text)`,
    `create unique index doc_assets_file on doc_assets(project_id, file_id)`,
    `create index doc_assets_status on doc_assets(status)`,
    `create table doc_chunks (
      id text primary key, asset_id text not null references doc_assets(id) on delete cascade,
      project_id text not null, path text not null, version integer not null, idx integer not null, text text not null,
      start_offset integer not null, end_offset integer not null, page integer, content_hash text not null,
      created_at text not null)`,
    `create unique index doc_chunks_asset on doc_chunks(asset_id, version, idx)`,
  ];
}
