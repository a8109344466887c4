import { sql, type Kysely } from 'kysely';

/**
 * Search from index structures on PostgreSQL (packages/core/src/search/pg-backend.ts). The tsvector + GIN of
 * migration 003 found candidates but made every query read and unnest each candidate's vector and count the
 * matches of every term over the whole table, so a search over a thousand pages took seconds. Instead:
 *
 * - `search_postings`: one row per (document, term) with the term's title and body frequencies, and the
 *   document's length, kind and visibility copied in, so a query reads only the postings of its own terms
 *   through one B-tree (index-only) and filters and scores them without touching `search_docs`; only the page
 *   of hits is joined back. Triggers keep the copies in step when a document's visibility changes.
 * - `search_term_df` / `search_stats`: document frequency per term and the table's document and token counts,
 *   which BM25's idf and average length need (FTS5 keeps them in its index). Statement triggers maintain them,
 *   also for rows removed by ON DELETE CASCADE. Each is split into slots by the writing connection
 *   (pg_backend_pid), so concurrent writers never wait on one another's counter rows; readers sum the slots.
 *
 * Existing vectors are converted in place, then the tsvector column and its GIN index are dropped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `create table search_postings (
      project_id text not null,
      term text collate "C" not null,
      doc_id bigint not null references search_docs(id) on delete cascade,
      tf_title integer not null, tf_body integer not null, ntokens integer not null,
      kind text not null, visibility text not null,
      primary key (project_id, term, doc_id) include (tf_title, tf_body, ntokens, kind, visibility))`,
    `create index search_postings_doc on search_postings(doc_id)`,
    `create table search_term_df (term text collate "C" not null, slot smallint not null, ndocs bigint not null,
      primary key (term, slot))`,
    `create table search_stats (slot smallint primary key, ndocs bigint not null, ntokens bigint not null)`,
    // Locks are taken in term order, so two writers that do share a slot cannot deadlock on these rows.
    `create function search_postings_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into search_term_df (term, slot, ndocs)
          select term, (pg_backend_pid() % 32)::smallint, count(*) from new_rows group by term order by term
          on conflict (term, slot) do update set ndocs = search_term_df.ndocs + excluded.ndocs;
      else
        insert into search_term_df (term, slot, ndocs)
          select term, (pg_backend_pid() % 32)::smallint, -count(*) from old_rows group by term order by term
          on conflict (term, slot) do update set ndocs = search_term_df.ndocs + excluded.ndocs;
      end if;
      return null;
    end $$`,
    `create trigger search_postings_inserted after insert on search_postings
      referencing new table as new_rows for each statement execute function search_postings_count()`,
    `create trigger search_postings_deleted after delete on search_postings
      referencing old table as old_rows for each statement execute function search_postings_count()`,
    `create function search_docs_count() returns trigger language plpgsql as $$
    declare dn bigint := 0; dt bigint := 0; n bigint; t bigint;
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        select count(*), coalesce(sum(ntokens), 0) into n, t from new_rows; dn := dn + n; dt := dt + t;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        select count(*), coalesce(sum(ntokens), 0) into n, t from old_rows; dn := dn - n; dt := dt - t;
      end if;
      if dn <> 0 or dt <> 0 then
        insert into search_stats (slot, ndocs, ntokens) values ((pg_backend_pid() % 32)::smallint, dn, dt)
          on conflict (slot) do update set ndocs = search_stats.ndocs + excluded.ndocs, ntokens = search_stats.ntokens + excluded.ntokens;
      end if;
      return null;
    end $$`,
    `create trigger search_docs_inserted after insert on search_docs
      referencing new table as new_rows for each statement execute function search_docs_count()`,
    `create trigger search_docs_updated after update on search_docs
      referencing old table as old_rows new table as new_rows for each statement execute function search_docs_count()`,
    `create trigger search_docs_deleted after delete on search_docs
      referencing old table as old_rows for each statement execute function search_docs_count()`,
    `create function search_docs_visibility() returns trigger language plpgsql as $$
    begin
      update search_postings set visibility = new.visibility where doc_id = new.id;
      return null;
    end $$`,
    `create trigger search_docs_visibility after update of visibility on search_docs
      for each row when (old.visibility is distinct from new.visibility) execute function search_docs_visibility()`,
    `insert into search_stats (slot, ndocs, ntokens)
      select 0, count(*), coalesce(sum(ntokens), 0) from search_docs`,
    `insert into search_postings (project_id, term, doc_id, tf_title, tf_body, ntokens, kind, visibility)
      select d.project_id, u.lexeme, d.id,
        (select count(*) from unnest(u.weights) w where w = 'A'), (select count(*) from unnest(u.weights) w where w <> 'A'),
        d.ntokens, d.kind, d.visibility
      from search_docs d cross join lateral unnest(d.tsv) u`,
    `drop index search_docs_tsv`,
    `alter table search_docs drop column tsv`,
    `analyze search_docs`,
    `analyze search_postings`,
    `analyze search_term_df`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
