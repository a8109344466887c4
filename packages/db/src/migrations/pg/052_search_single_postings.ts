import { sql, type Kysely } from 'kysely';
// The ranking is migration 051's, reading blocks and single postings through one view.
import { createRank } from './051_search_and_by_rarest_word.js';

/**
 * Migration 052: a word's only posting in a project is a narrow row of `search_singles` instead of a block of its
 * own (issue 30, item 4; docs/decisions/0039-pg-search-single-postings.md). At 10,000 pages two blocks in three held
 * one posting — 16 bytes of posting in a row of ≈ 125 bytes with 45 bytes of array header and line pointer, plus
 * ≈ 70 bytes in the block indexes — and they were most of the index's size (bench/README.md, "Single postings in
 * narrow rows").
 *
 * - `search_singles` holds (document, title frequency, body frequency, length) as plain columns; its ids come from
 *   the blocks' sequence, so a block and a single never share one.
 * - `search_all_blocks` shows every single as a block of one posting; the ranking (051's, unchanged otherwise)
 *   reads it instead of `search_blocks`.
 * - Adding: a word with one new posting in a project where it has neither a block nor a single gets a single. A
 *   word gaining a posting where it has a single takes the single into its blocks (the row deleted, its posting
 *   added with the new ones); a single another writer holds is left to that writer (`skip locked`, as home blocks
 *   are: writers never wait for each other), and the new posting goes to a block.
 * - Removing: a posting is deleted from the singles if it is one, from its block otherwise.
 *
 * Existing blocks of one posting stay as they are (a block of one is still valid); new writes make singles.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    // Fixed-width columns first, so the row needs no padding: 24 bytes of header, 32 of columns, then the texts.
    // No index on id: the ranking reaches a word's singles by the word (search_singles_term) and keeps those of
    // the ids it chose, so a single costs its row and two small index entries.
    `create table search_singles (
      id bigint not null default nextval('search_blocks_id_seq'),
      doc bigint not null, tt int4 not null, tb int4 not null, dl int4 not null,
      project_id text not null,
      term text collate "C" not null)`,
    `create index search_singles_term on search_singles (term, project_id)`,
    // For deleting a project's rows (delete-project.ts and the trigger on projects).
    `create index search_singles_project on search_singles (project_id)`,
    `create view search_all_blocks as
      select id, project_id, term, first_doc, last_doc, n, bnd, p from search_blocks
      union all
      select id, project_id, term, doc, doc, 1, null::int4[], array[[0, tt, tb, dl]] from search_singles`,
    `create or replace function search_blocks_project_gone() returns trigger language plpgsql as $$
    begin
      delete from search_blocks b using old_rows o where b.project_id = o.id;
      delete from search_singles s using old_rows o where s.project_id = o.id;
      return null;
    end $$`,
    `alter function stoa_search_add(text[], int8[], text[], int4[], int4[], int4[]) rename to stoa_search_add_blocks`,
    `alter function stoa_search_remove(text[], int8[], text[]) rename to stoa_search_remove_blocks`,
    // One statement decides, from its one snapshot, which words get a single: those with one new posting and
    // no single or block visible to it (a single it takes, or one held by another writer, sends the word to blocks).
    `create function stoa_search_add(p_project text[], p_doc int8[], p_term text[], p_tt int4[], p_tb int4[], p_dl int4[])
    returns void language plpgsql as $$
    declare
      b_project text[]; b_doc int8[]; b_term text[]; b_tt int4[]; b_tb int4[]; b_dl int4[];
    begin
      with a as (select * from unnest(p_project, p_term, p_doc, p_tt, p_tb, p_dl) as a(project_id, term, doc, tt, tb, dl)),
      t as (select project_id, term, count(*) as k from a group by project_id, term),
      -- Deleted by the row version locked here (ctid: singles are never updated, and the lock holds it): the table
      -- has no index on id, and a join on id would scan it.
      held as (
        select s.ctid as row from search_singles s join t on s.term = t.term collate "C" and s.project_id = t.project_id
        order by s.id for update of s skip locked),
      taken as (
        delete from search_singles s using held where s.ctid = held.row
        returning s.project_id, s.term, s.doc, s.tt, s.tb, s.dl),
      lone as (
        insert into search_singles (doc, tt, tb, dl, project_id, term)
        select a.doc, a.tt, a.tb, a.dl, a.project_id, a.term from a join t using (project_id, term)
        where t.k = 1
          and not exists (select 1 from search_singles s where s.term = a.term collate "C" and s.project_id = a.project_id)
          and not exists (select 1 from search_blocks b where b.term = a.term collate "C" and b.project_id = a.project_id)
        returning project_id, term, doc),
      rest as (
        select a.project_id, a.term, a.doc, a.tt, a.tb, a.dl from a
        where not exists (select 1 from lone l where l.project_id = a.project_id and l.term = a.term and l.doc = a.doc)
        union all select * from taken)
      select array_agg(project_id), array_agg(doc), array_agg(term), array_agg(tt), array_agg(tb), array_agg(dl)
        into b_project, b_doc, b_term, b_tt, b_tb, b_dl from rest;
      if b_doc is not null then perform stoa_search_add_blocks(b_project, b_doc, b_term, b_tt, b_tb, b_dl); end if;
    end $$`,
    `create function stoa_search_remove(p_project text[], p_doc int8[], p_term text[])
    returns void language plpgsql as $$
    declare
      b_project text[]; b_doc int8[]; b_term text[];
    begin
      with r as (select * from unnest(p_project, p_term, p_doc) as r(project_id, term, doc)),
      gone as (
        delete from search_singles s using r where s.term = r.term collate "C" and s.project_id = r.project_id and s.doc = r.doc
        returning s.project_id, s.term, s.doc)
      select array_agg(r.project_id), array_agg(r.doc), array_agg(r.term) into b_project, b_doc, b_term
        from r where not exists (select 1 from gone g where g.project_id = r.project_id and g.term = r.term and g.doc = r.doc);
      if b_doc is not null then perform stoa_search_remove_blocks(b_project, b_doc, b_term); end if;
    end $$`,
    createRank('search_all_blocks'),
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
