/**
 * The derived-data outbox (migration 037): one small row per change whose search index is written after the
 * change commits. The row commits with the change, so an acknowledged write is never left unindexed: the drainer
 * (packages/core/src/outbox/drain.ts) indexes the target's current state and deletes the row; a row a crash
 * left behind is drained at the next start or background pass.
 *
 * - `kind` 'file': `ref_id` is a file ID (`files.id`); the file's current row decides what is indexed.
 * - `kind` 'wiki' (since decision 0020's "wiki pages too"): `ref_id` is a wiki page ID; its current row decides.
 * - `kind` 'memory': `ref_id` is a memory file ID; `first_block` is the first search block the change touched
 *   (an append touches only the tail) and `old_blocks` how many blocks the file had before it, so a shorter
 *   text drops the blocks past its end; `path`, `title` and `visibility` are what the blocks are indexed under.
 */
export function outboxStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const seq = dialect === 'sqlite' ? 'seq integer primary key autoincrement' : 'seq bigserial primary key';
  return [
    `create table derived_outbox (
      ${seq},
      project_id text not null references projects(id) on delete cascade,
      kind text not null,
      ref_id text not null,
      version integer not null,
      first_block integer not null default 0,
      old_blocks integer not null default 0,
      path text,
      title text,
      visibility text,
      at text not null
    )`,
    'create index derived_outbox_project_seq on derived_outbox (project_id, seq)',
  ];
}

/**
 * Migration 045: a row whose target fails to index is kept, never dropped, and retried later: `attempts` counts
 * its failed drains, `retry_at` (ISO time) is when a drain may claim it again (null: at once), `last_error` says
 * why the last one failed. Both engines take the same statements.
 */
export function outboxRetryStatements(): string[] {
  return [
    'alter table derived_outbox add column attempts integer not null default 0',
    'alter table derived_outbox add column retry_at text',
    'alter table derived_outbox add column last_error text',
  ];
}
