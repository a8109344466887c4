/**
 * DDL of the wiki (migration 004), for both dialects.
 *
 * Paths compare by code point on both back ends (SQLite BINARY; PostgreSQL `collate "C"`), so the subtree of
 * `handbook` is the range [`handbook/`, `handbook0`) and one index serves both the tree and prefix lookups.
 * Links are stored by target path, not page ID: a move does not rewrite them, so they point to a missing page
 * (W6), and a page later created at that path receives them.
 *
 * @example
 * for (const s of wikiStatements('sqlite')) await sql.raw(s).execute(db);
 */
export function wikiStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const pathType = dialect === 'postgres' ? 'text collate "C"' : 'text';
  return [
    `create table wiki_pages (
      id text primary key,
      project_id text not null references projects(id) on delete cascade,
      path ${pathType} not null, title text not null default '', body text not null, version integer not null,
      channel_id text,
      created_at text not null, created_by_kind text not null, created_by_id text, created_by_label text,
      updated_at text not null, updated_by_kind text not null, updated_by_id text, updated_by_label text)`,
    `create unique index wiki_pages_path on wiki_pages(project_id, path)`,
    `create table wiki_versions (
      id text primary key,
      page_id text not null references wiki_pages(id) on delete cascade,
      project_id text not null, version integer not null, path ${pathType} not null, title text not null,
      body text not null, channel_id text, action text not null,
      author_kind text not null, author_id text, author_label text, author_meta text, created_at text not null)`,
    `create unique index wiki_versions_page on wiki_versions(page_id, version)`,
    `create table wiki_links (
      project_id text not null,
      from_page_id text not null references wiki_pages(id) on delete cascade,
      to_path ${pathType} not null, label text, heading text,
      primary key (from_page_id, to_path))`,
    `create index wiki_links_to on wiki_links(project_id, to_path)`,
  ];
}

/** Wiki pages, their versions and their `[[links]]` (packages/core/src/wiki). */
