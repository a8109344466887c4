/**
 * Project deletion (migration 019): a project being deleted is marked first, so every door stops seeing it at
 * once, and its rows are removed in bounded batches afterwards (resumed after a restart). The record of the
 * deletion outlives the project, in the installation's own audit log.
 */
export function projectDeletionStatements(autoId: string): string[] {
  return [
    `alter table projects add column deleting_at text`,
    `create table installation_audit (
      id ${autoId},
      at text not null,
      actor_id text,
      actor_label text,
      action text not null,
      subject text not null,
      details text
    )`,
  ];
}
