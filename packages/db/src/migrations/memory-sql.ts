/**
 * Memory files (§5, packages/core/src/memory). `memory_files` is one row per SOUL.md
 * (scope = agent ID), AGENTS.md (scope = '') and MEMORY.md (scope = conversation ID) with its newest version
 * number; writers lock that row, so
 * concurrent appends queue (PostgreSQL: SELECT … FOR UPDATE) instead of losing lines. `memory_versions` keeps every save (an append as the
 * text it added — `delta` = 1 — with a full snapshot every 50 versions, so appends write little)
 * with its author.
 * `memory_seen` is what a hosted agent last saw of each file in one conversation (M6): the version its
 * working copy was written from, and the hash of the copy it last committed (so one edit is never merged twice).
 */
export function memoryStatements(): string[] {
  return [
    `create table memory_files (
      id text primary key, project_id text not null references projects(id) on delete cascade,
      kind text not null, scope_id text not null, version integer not null,
      updated_at text not null, author_kind text, author_id text, author_label text, author_meta text)`,
    `create unique index memory_files_scope on memory_files(project_id, kind, scope_id)`,
    `create table memory_versions (
      file_id text not null references memory_files(id) on delete cascade,
      project_id text not null references projects(id) on delete cascade,
      version integer not null, content text not null, delta integer not null, chars integer not null, op text not null,
      author_kind text not null, author_id text, author_label text, author_meta text, created_at text not null,
      primary key (file_id, version))`,
    `create table memory_seen (
      project_id text not null references projects(id) on delete cascade,
      agent_id text not null, conversation_id text not null, kind text not null, scope_id text not null,
      version integer not null, committed_sha text, seen_at text not null,
      primary key (agent_id, conversation_id, kind, scope_id))`,
  ];
}
