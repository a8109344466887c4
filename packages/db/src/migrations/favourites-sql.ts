/**
 * A person's favourites and recently opened items, per project (migration 036). `target` is what stays the same
 * when the item is renamed or moved: a file's ID, a wiki page's ID, a folder's path. Rows go with their person
 * (cascade) and with their project (delete-project.ts lists both tables).
 */
export function favouritesStatements(): string[] {
  return [
    `create table favourites (project_id text not null, user_id text not null references users(id) on delete cascade,
      kind text not null, target text not null, created_at text not null, primary key (project_id, user_id, kind, target))`,
    `create table recent_items (project_id text not null, user_id text not null references users(id) on delete cascade,
      kind text not null, target text not null, opened_at text not null, primary key (project_id, user_id, kind, target))`,
    `create index recent_items_by_time on recent_items (project_id, user_id, opened_at)`,
  ];
}
