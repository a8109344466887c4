import { sql, type Kysely } from 'kysely';

/**
 * Search index (packages/core/src/search). `search_docs` holds what is filtered and shown, `search_bodies` the
 * original text for snippets, `search_fts` a contentless FTS5 table over the application's token streams
 * (rowid = search_docs.id).
 *
 * The tokenizer treats every character except spaces and control characters as part of a token, so the terms
 * produced by Intl.Segmenter + stemming reach the index unchanged ("3.14", "foo_bar", "数据" stay one token).
 * contentless_delete lets upserts and deletes remove a row without storing the token text twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `create table search_docs (
      id integer primary key,
      project_id text not null references projects(id) on delete cascade,
      kind text not null, ref_id text not null, path text not null, title text not null,
      visibility text not null, updated_at text not null, ntokens integer not null default 0)`,
    // Bodies live apart: ranking looks up search_docs once per match (10k+ for a common word) and a narrow
    // table stays in the page cache; with bodies inline the same lookups cost ~3x more.
    `create table search_bodies (
      doc_id integer primary key references search_docs(id) on delete cascade, body text not null)`,
    `create unique index search_docs_ref on search_docs(project_id, kind, ref_id)`,
    `create index search_docs_path on search_docs(project_id, path)`,
    `create virtual table search_fts using fts5(title, body,
      tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'",
      content = '', contentless_delete = 1)`,
    // Also fires for rows removed by the project's ON DELETE CASCADE, so the FTS index never keeps orphans.
    `create trigger search_docs_fts_delete after delete on search_docs begin
      delete from search_fts where rowid = old.id;
    end`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
