/**
 * Real folders and what WebDAV clients keep on files (migration 010), the same on both dialects:
 * - `dirs.kept`: a folder created on purpose (or holding one) stays when its last file goes (F9, amended: see docs/webdav.md).
 * - `dav_props`: dead properties set with PROPPATCH, per file, so they move with it and go when it is deleted.
 * - `dav_locks`: WebDAV write locks, shared by every server of the installation; expired rows are ignored.
 */
export function foldersDavStatements(): string[] {
  return [
    `alter table dirs add column kept integer not null default 0`,
    `create table dav_props (
      file_id text not null, project_id text not null references projects(id) on delete cascade,
      ns text not null, name text not null, value text not null, primary key (file_id, ns, name))`,
    `create table dav_locks (
      token text primary key, project_id text not null references projects(id) on delete cascade,
      path text not null, depth text not null, scope text not null, owner text, principal text not null,
      timeout_seconds integer not null, expires_at text not null, created_at text not null)`,
    `create index dav_locks_path on dav_locks(project_id, path)`,
  ];
}
