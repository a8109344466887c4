import { sql, type Kysely } from 'kysely';

/**
 * Search index (packages/core/src/search). `tsv` holds the application's terms (title positions weighted A,
 * body D) built by the core, not by to_tsvector, so PostgreSQL and SQLite index the same terms; `ntokens` is
 * the document length BM25 needs (FTS5 keeps it internally).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `create table search_docs (
      id bigserial primary key,
      project_id text not null references projects(id) on delete cascade,
      kind text not null, ref_id text not null, path text not null, title text not null,
      visibility text not null, updated_at text not null, ntokens integer not null default 0,
      tsv tsvector not null default ''::tsvector)`,
    // Apart from search_docs for the same reason as on SQLite: the rows ranking walks stay narrow.
    `create table search_bodies (
      doc_id bigint primary key references search_docs(id) on delete cascade, body text not null)`,
    `create unique index search_docs_ref on search_docs(project_id, kind, ref_id)`,
    `create index search_docs_path on search_docs(project_id, path text_pattern_ops)`,
    `create index search_docs_tsv on search_docs using gin (tsv)`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
