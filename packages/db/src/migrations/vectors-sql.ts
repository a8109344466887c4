/**
 * Vectors for hybrid search (migration 020). One embedding per search document (wiki page, memory file, file
 * contents, document chunk), stored with the model that made it and a hash of the text it was made from, so a
 * changed text or a new model is embedded again. A document the provider refused keeps its row with the
 * provider's reason instead of a vector, so it is not retried until its text or the model changes.
 * `embedding_state` holds the provider's health per model: consecutive failures, when to try again, why.
 */
export function vectorStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const bytes = dialect === 'sqlite' ? 'blob' : 'bytea';
  const docId = dialect === 'sqlite' ? 'integer' : 'bigint';
  return [
    `create table search_vectors (
      doc_id ${docId} primary key references search_docs(id) on delete cascade,
      project_id text not null,
      model text not null,
      dims integer not null,
      text_hash text not null,
      vector ${bytes},
      error text,
      created_at text not null
    )`,
    `create index search_vectors_project on search_vectors(project_id, model)`,
    `create table embedding_state (
      model text primary key,
      failures integer not null default 0,
      next_attempt_at text,
      last_error text,
      updated_at text not null
    )`,
  ];
}
