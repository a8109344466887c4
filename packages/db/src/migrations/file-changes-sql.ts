/**
 * The change feed (B7, migration 014): one row per file written, moved or deleted, numbered in commit order, so
 * an agent asks "what changed since cursor N". Rows are written in the change's own transaction.
 */
export function fileChangeStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const seq = dialect === 'sqlite' ? 'seq integer primary key autoincrement' : 'seq bigserial primary key';
  return [
    `create table file_changes (
      ${seq},
      project_id text not null references projects(id) on delete cascade,
      kind text not null,
      path text not null,
      from_path text,
      version integer not null,
      size bigint not null,
      at text not null
    )`,
    'create index file_changes_project_seq on file_changes (project_id, seq)',
  ];
}
