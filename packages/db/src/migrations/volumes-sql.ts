/**
 * Volumes (migration 024, R1): a person's own files, an agent's own files, a person's private agent, a knowledge
 * base or a skill package is a row of the container table beside the projects, so the file store, versions,
 * quota, search, understanding and audit — all keyed by that row's id — serve it unchanged. `catalog` says which
 * kind; the owner columns are typed (never one concatenated scope); `volume_key` is the core's internal
 * uniqueness key, so two first uses at once create one volume.
 */
export function volumeStatements(): string[] {
  return [
    `alter table projects add column catalog text not null default 'projects'`,
    `alter table projects add column volume_key text`,
    `alter table projects add column scope_id text`,
    `alter table projects add column owner_user_id text`,
    `alter table projects add column owner_agent_id text`,
    `alter table projects add column parent_project_id text`,
    `alter table projects add column label text`,
    `create unique index projects_volume_key on projects(volume_key)`,
    `create index projects_parent on projects(parent_project_id)`,
  ];
}

/** Metadata of a file version (migration 025): a small JSON object of strings a runtime writes with it (R5). */
export function fileMetadataStatements(): string[] {
  return [`alter table files add column metadata text`, `alter table file_versions add column metadata text`];
}
