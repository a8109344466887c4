/**
 * The foundation schema, written once with two type spellings. Timestamps are ISO-8601 UTC text on both back
 * ends (sortable, identical in both), booleans are 0/1 integers, sizes are 64-bit integers.
 */
export function foundationStatements(big: 'integer' | 'bigint'): string[] {
  return [
    `create table organizations (id text primary key, name text not null, created_at text not null)`,
    `create table projects (
      id text primary key, org_id text not null references organizations(id),
      name text not null unique, quota_bytes ${big}, used_bytes ${big} not null default 0,
      reserved_bytes ${big} not null default 0, settings text not null default '{}',
      created_at text not null)`,
    `create table users (id text primary key, name text not null unique, display_name text, created_at text not null)`,
    `create table members (
      project_id text not null references projects(id) on delete cascade,
      user_id text not null references users(id) on delete cascade,
      role text not null, created_at text not null, primary key (project_id, user_id))`,
    `create table agents (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      owner_id text references users(id), name text not null, instructions text not null default '',
      files_enabled integer not null default 0, write_scope text not null default 'own',
      read_scope text not null default 'project', published_config text, published_at text,
      created_at text not null, updated_at text not null, deleted_at text)`,
    `create index agents_project on agents(project_id)`,
    `create table tokens (
      id text primary key, token_hash text not null unique, user_id text references users(id) on delete cascade,
      agent_id text references agents(id) on delete cascade, name text, created_at text not null,
      last_used_at text, revoked_at text)`,
    `create table conversations (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      kind text not null, name text, created_at text not null)`,
    `create unique index conversations_channel_name on conversations(project_id, name)`,
    `create table conversation_members (
      conversation_id text not null references conversations(id) on delete cascade,
      member_kind text not null, member_id text not null, primary key (conversation_id, member_kind, member_id))`,
    `create index conversation_members_member on conversation_members(member_id)`,
    `create table blobs (key text primary key, size ${big} not null, created_at text not null)`,
    `create table files (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      path text not null, dir text not null, name text not null, name_lower text not null,
      size ${big} not null, mime text not null, sha256 text not null, blob_key text not null,
      version integer not null, permissions text not null default '644',
      created_by_kind text not null, created_by_id text, created_by_label text, created_by_meta text,
      created_at text not null, modified_at text not null, modified_by_kind text not null,
      modified_by_id text, modified_by_label text)`,
    `create unique index files_path on files(project_id, path)`,
    `create index files_dir on files(project_id, dir, name)`,
    `create index files_name on files(project_id, name_lower)`,
    `create table file_versions (
      id text primary key, file_id text not null, project_id text not null references projects(id) on delete cascade,
      path text not null, version integer not null, size ${big} not null, mime text not null, sha256 text not null,
      blob_key text not null, author_kind text not null, author_id text, author_label text,
      author_meta text, created_at text not null)`,
    `create unique index file_versions_file on file_versions(file_id, version)`,
    `create index file_versions_blob on file_versions(blob_key)`,
    `create table dirs (
      project_id text not null references projects(id) on delete cascade, path text not null,
      parent text not null, name text not null, file_count ${big} not null, primary key (project_id, path))`,
    `create index dirs_parent on dirs(project_id, parent, name)`,
    `create table upload_reservations (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      path text not null, size ${big} not null, sha256 text, staging_key text not null,
      actor text not null, status text not null, created_at text not null, expires_at text not null)`,
    `create index upload_reservations_expiry on upload_reservations(status, expires_at)`,
    `create table audit_log (
      id ${big === 'bigint' ? 'bigserial' : 'integer'} primary key, project_id text not null references projects(id) on delete cascade,
      at text not null, actor_kind text not null, actor_id text, actor_label text, action text not null,
      path text, from_path text, to_path text, size ${big}, details text)`,
    `create index audit_log_project on audit_log(project_id, id)`,
    `create table login_codes (code_hash text primary key, user_id text not null references users(id) on delete cascade,
      created_at text not null, expires_at text not null, used_at text)`,
  ];
}
