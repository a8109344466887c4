/**
 * The trash (migration 035, issue 29): a deleted file or folder keeps its rows here, out of the live tables, until
 * it is restored or purged. `trash_entries` is one deletion (a file, or a folder with everything in it);
 * `trash_files` and `trash_versions` hold the deleted rows column for column as `files` and `file_versions` had
 * them, so a restore puts them back as they were. Their blob keys keep the blobs alive until purged (the sweep
 * reads them as references).
 */
export function trashStatements(big: 'integer' | 'bigint'): string[] {
  return [
    `create table trash_entries (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      kind text not null, path text not null, name text not null, size ${big} not null, stored_bytes ${big} not null,
      files integer not null, kept_dirs text not null default '[]', deleted_at text not null,
      deleted_by_kind text not null, deleted_by_id text, deleted_by_label text, conversation_id text)`,
    `create index trash_entries_project on trash_entries(project_id, deleted_at)`,
    `create index trash_entries_age on trash_entries(deleted_at)`,
    `create index trash_entries_conversation on trash_entries(conversation_id)`,
    `create table trash_files (
      id text primary key, entry_id text not null, project_id text not null references projects(id) on delete cascade,
      path text not null, dir text not null, name text not null, name_lower text not null, size ${big} not null,
      mime text not null, sha256 text not null, blob_key text not null, version integer not null,
      permissions text not null, created_by_kind text not null, created_by_id text, created_by_label text,
      created_by_meta text, created_at text not null, modified_at text not null, modified_by_kind text not null,
      modified_by_id text, modified_by_label text, metadata text)`,
    `create index trash_files_entry on trash_files(entry_id)`,
    `create index trash_files_blob on trash_files(blob_key)`,
    `create table trash_versions (
      id text primary key, entry_id text not null, file_id text not null,
      project_id text not null references projects(id) on delete cascade,
      path text not null, version integer not null, size ${big} not null, mime text not null, sha256 text not null,
      blob_key text not null, author_kind text not null, author_id text, author_label text, author_meta text,
      created_at text not null, metadata text)`,
    `create index trash_versions_entry on trash_versions(entry_id)`,
    `create index trash_versions_blob on trash_versions(blob_key)`,
  ];
}
