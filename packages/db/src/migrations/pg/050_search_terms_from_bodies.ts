import { sql, type Kysely } from 'kysely';

/**
 * Migration 050: the PostgreSQL search index keeps no term list per document (issue 30, item 4;
 * docs/decisions/0037-pg-search-terms-from-bodies.md). `search_docs.terms` (migration 040) held each document's
 * distinct terms so that removing or replacing it found its postings; at 100,000 pages it was ≈ 200 MB, 0.4× the
 * whole SQLite file. The terms are now derived again, where a document is replaced or removed, from the title and
 * body the index already stores (`search_docs.title`, `search_bodies.body`) by the same tokenizer
 * (packages/core/src/search/pg-backend.ts), so the removal happens in the search module's own statements and the
 * trigger that read the list goes.
 *
 * A project's blocks are deleted with the project: delete-project.ts deletes them first; a `delete from
 * projects` that cascades to the documents (as the trigger covered) now deletes them by a trigger on `projects`.
 *
 * Dropping the column is immediate; the bytes of existing rows are reclaimed as the rows are rewritten.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `drop trigger search_docs_unposted on search_docs`,
    `drop function search_docs_unpost()`,
    `alter table search_docs drop column terms`,
    `create function search_blocks_project_gone() returns trigger language plpgsql as $$
    begin
      delete from search_blocks b using old_rows o where b.project_id = o.id;
      return null;
    end $$`,
    `create trigger search_blocks_project_gone after delete on projects
      referencing old table as old_rows for each statement execute function search_blocks_project_gone()`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
