/**
 * Agent file tools (packages/core/src/tools): the per-conversation write windows (A4, kept in the database so
 * the limit holds across restarts and processes), the conversation trace of tool calls (F15), notes given
 * with create_file, and tokens created for an agent's publication (A7).
 */
export function agentToolStatements(dialect: 'sqlite' | 'postgres'): string[] {
  return [
    `create table agent_write_windows (
      project_id text not null references projects(id) on delete cascade,
      conversation_key text not null, agent_id text not null,
      window_start text not null, writes integer not null,
      primary key (project_id, conversation_key, agent_id))`,
    `create table tool_calls (
      seq ${dialect === 'postgres' ? 'bigserial' : 'integer'} primary key${dialect === 'postgres' ? '' : ' autoincrement'}, id text not null unique,
      project_id text not null references projects(id) on delete cascade,
      conversation_id text, agent_id text, agent_name text, tool text not null, args text not null,
      result text not null, refused integer not null, duration_ms ${dialect === 'postgres' ? 'double precision' : 'real'} not null, path text, version integer,
      at text not null)`,
    `create index tool_calls_conversation on tool_calls(conversation_id, seq)`,
    `create table file_notes (file_id text primary key references files(id) on delete cascade, description text not null)`,
    `alter table tokens add column published integer not null default 0`,
  ];
}
