import { sql, type Kysely } from 'kysely';

/**
 * Search postings packed per term and block, and a ranking that skips the blocks that cannot reach the page
 * (issue 30, item 4; packages/core/src/search/pg-backend.ts, docs/decisions/0019-pg-search-blocks-and-pruning.md).
 *
 * `search_postings` (migration 011) held a row per (document, term): ≈ 70 bytes of heap and B-tree each, 14×
 * SQLite's FTS5 file, and a common word's search scored every one of its postings. Now:
 *
 * - `search_blocks`: a row per (project, term, block of up to 128 documents). `p` holds the postings as one
 *   two-dimensional array sorted by document, a row [document id, title frequency, body frequency, length] each
 *   (one array, not four: most terms are rare, and each array costs a 20-byte header; PostgreSQL compresses a
 *   full block). `bnd` holds a few bound points [title frequency, body frequency, length]: every posting of the
 *   block has a title frequency ≤, a body frequency ≤ and a length ≥ those of one point. BM25 rises with the
 *   frequencies and falls with the length, so the best score of a point bounds the block's scores for any
 *   weights and any average length, which are only known at query time. The first four points are single
 *   postings (the block's best under the default weights), so the bound is tight where it matters; a block of
 *   four postings or fewer has no points (its postings are their own).
 * - A block's `first_doc` never changes: new postings go into the block with the largest `first_doc` not above
 *   them while it has room, else into new blocks, and a posting never moves to another block. So a writer that
 *   removes a posting finds its block by id range and updates the row by its id; a concurrent change of the same
 *   row is re-read (READ COMMITTED re-evaluates the update on the newest row), never lost.
 * - `search_docs.terms`: a document's distinct terms, so that removing or replacing it finds its postings.
 *   Kind, visibility and path stay in `search_docs` only: the ranking checks them for the candidates it keeps.
 * - `search_term_df` is kept by a statement trigger on `search_blocks` (the change of each block's count), so
 *   BM25's statistics stay as before; `search_stats` is unchanged.
 *
 * Existing postings are packed in place, then `search_postings` is dropped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `alter table search_docs add column terms text[] not null default '{}'`,
    `create table search_blocks (
      id bigserial primary key,
      project_id text not null,
      term text collate "C" not null,
      first_doc bigint not null, last_doc bigint not null, n integer not null,
      bnd int4[], p int8[] not null)`,
    `create index search_blocks_term on search_blocks (project_id, term, first_doc) `,
    // A full block's postings are 4 KB: over the TOAST threshold, so PostgreSQL compresses them.
    // A block's contents from its postings (any order): sorted by document, with its bound points. Points 1–4 are
    // the four best postings under the default weights (title 3, body 1, the block's own mean length), exact; the
    // rest are groups of 16 by that order, each the maxima of frequencies and minimum of lengths.
    `create function stoa_search_pack(p_old int8[], p_gone int8[], p_docs int8[], p_tt int4[], p_tb int4[], p_dl int4[],
      out n integer, out last_doc bigint, out p int8[], out bnd int4[])
    language sql immutable as $$
      with u as (
        select * from unnest(p_old[:][1:1], p_old[:][2:2], p_old[:][3:3], p_old[:][4:4]) as o(doc, tt, tb, dl)
        where p_gone is null or o.doc <> all(p_gone)
        union all select * from unnest(p_docs, p_tt, p_tb, p_dl)),
      m as (select greatest(avg(dl), 1)::float8 as avgdl from u),
      r as (select u.*, row_number() over (order by (3 * u.tt + u.tb) / ((3 * u.tt + u.tb) + 1.2 * (0.25 + 0.75 * u.dl / m.avgdl)) desc, u.doc) as r
        from u cross join m),
      g as (select max(tt) as tt, max(tb) as tb, min(dl) as dl from r group by case when r <= 4 then r else 5 + (r - 5) / 16 end)
      select count(*)::int, max(doc), coalesce(array_agg(array[doc, tt, tb, dl] order by doc), '{}'),
        case when count(*) > 4 then (select array_agg(array[tt, tb, dl]::int4[]) from g) end
      from u $$`,
    // Adds postings (project, document, term, frequencies, length) whose documents are not in those terms' blocks.
    // Each term's postings fill its home block (largest first_doc ≤ its smallest new document) up to 128; the
    // rest become new blocks of 128. A home block another writer holds (every save adds "the" to the same last
    // block) is skipped, not waited for: the postings go to an older block with room or a new one, so writers
    // of one project do not queue on common words until each other's commit, nor deadlock here.
    `create function stoa_search_add(p_project text[], p_doc int8[], p_term text[], p_tt int4[], p_tb int4[], p_dl int4[])
    returns void language plpgsql as $$
    begin
      with a as (
        select a.*, row_number() over (partition by a.project_id, a.term order by a.doc) as rn
        from unnest(p_project, p_term, p_doc, p_tt, p_tb, p_dl) as a(project_id, term, doc, tt, tb, dl)),
      t as (select project_id, term, min(doc) as d0 from a group by project_id, term order by project_id, term),
      h as (select t.project_id, t.term, b.id, b.n from t cross join lateral (
          select x.id, x.n from search_blocks x where x.project_id = t.project_id and x.term = t.term collate "C" and x.first_doc <= t.d0
          order by x.first_doc desc limit 1 for update skip locked) b),
      ah as (select a.*, h.id as home, 128 - h.n as room from a left join h on h.project_id = a.project_id and h.term = a.term and h.n < 128),
      upd as (
        update search_blocks b set (n, last_doc, p, bnd) = (
            select k.n, greatest(k.last_doc, b.last_doc), k.p, k.bnd from stoa_search_pack(b.p, null, x.docs, x.tt, x.tb, x.dl) k)
          from (select home, array_agg(doc) as docs, array_agg(tt) as tt, array_agg(tb) as tb, array_agg(dl) as dl
            from ah where home is not null and rn <= room group by home) x
          where b.id = x.home)
      insert into search_blocks (project_id, term, first_doc, last_doc, n, p, bnd)
        select g.project_id, g.term, g.first_doc, k.last_doc, k.n, k.p, k.bnd
        from (select project_id, term, min(doc) as first_doc, array_agg(doc) as docs, array_agg(tt) as tt, array_agg(tb) as tb, array_agg(dl) as dl
          from ah where home is null or rn > room
          group by project_id, term, (rn - coalesce(room, 0) - 1) / 128) g
        cross join lateral stoa_search_pack(null, null, g.docs, g.tt, g.tb, g.dl) k
        order by g.project_id, g.term, g.first_doc;
    end $$`,
    // Removes the postings (project, document, term). A posting stays in the block it was added to, so its block
    // is the one whose range holds it and whose documents include it; blocks left empty are deleted.
    `create function stoa_search_remove(p_project text[], p_doc int8[], p_term text[])
    returns void language plpgsql as $$
    declare emptied int8[];
    begin
      with r as (select * from unnest(p_project, p_term, p_doc) as r(project_id, term, doc)),
      loc as (select b.id, r.doc from r cross join lateral (
          select x.id from search_blocks x where x.project_id = r.project_id and x.term = r.term and x.first_doc <= r.doc
            and x.last_doc >= r.doc and r.doc = any(x.p[:][1:1]) order by x.first_doc desc limit 1) b),
      g as (select id, array_agg(doc) as gone from loc group by id),
      -- Blocks are locked in id order before any is changed: two removers that share blocks wait for one another
      -- in one order, never in a cycle (adders skip a held block, so they wait for nobody).
      lk as (select b.id from search_blocks b join g on g.id = b.id order by b.id for update of b),
      u as (update search_blocks b set (n, p, bnd) = (select k.n, k.p, k.bnd from stoa_search_pack(b.p, g.gone, null, null, null, null) k)
        from g join lk on lk.id = g.id where b.id = g.id returning b.id, b.n)
      select array_agg(id) into emptied from u where n = 0;
      if emptied is not null then
        delete from search_blocks where id = any(emptied) and n = 0;
      end if;
    end $$`,
    // A batch of documents re-indexed: their old postings out, then their new ones in (one call, so one statement).
    `create function stoa_search_replace(r_project text[], r_doc int8[], r_term text[],
      a_project text[], a_doc int8[], a_term text[], a_tt int4[], a_tb int4[], a_dl int4[])
    returns void language plpgsql as $$
    begin
      if cardinality(r_doc) > 0 then perform stoa_search_remove(r_project, r_doc, r_term); end if;
      if cardinality(a_doc) > 0 then perform stoa_search_add(a_project, a_doc, a_term, a_tt, a_tb, a_dl); end if;
    end $$`,
    `create function search_blocks_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into search_term_df (term, slot, ndocs)
          select term, (pg_backend_pid() % 32)::smallint, sum(n) from new_rows group by term order by term
          on conflict (term, slot) do update set ndocs = search_term_df.ndocs + excluded.ndocs;
      elsif tg_op = 'DELETE' then
        insert into search_term_df (term, slot, ndocs)
          select term, (pg_backend_pid() % 32)::smallint, -sum(n) from old_rows group by term order by term
          on conflict (term, slot) do update set ndocs = search_term_df.ndocs + excluded.ndocs;
      else
        insert into search_term_df (term, slot, ndocs)
          select term, (pg_backend_pid() % 32)::smallint, sum(dn) from (
            select term, n as dn from new_rows union all select term, -n from old_rows) c
          group by term having sum(dn) <> 0 order by term
          on conflict (term, slot) do update set ndocs = search_term_df.ndocs + excluded.ndocs;
      end if;
      return null;
    end $$`,
    `create trigger search_blocks_inserted after insert on search_blocks
      referencing new table as new_rows for each statement execute function search_blocks_count()`,
    `create trigger search_blocks_updated after update on search_blocks
      referencing old table as old_rows new table as new_rows for each statement execute function search_blocks_count()`,
    `create trigger search_blocks_deleted after delete on search_blocks
      referencing old table as old_rows for each statement execute function search_blocks_count()`,
    // A removed document's postings go with it (as the foreign key's cascade did for search_postings).
    `create function search_docs_unpost() returns trigger language plpgsql as $$
    declare pr text[]; dc int8[]; tm text[];
    begin
      select array_agg(o.project_id), array_agg(o.id), array_agg(t.term) into pr, dc, tm
        from old_rows o cross join unnest(o.terms) as t(term)
        -- A project being deleted has had its blocks deleted first (delete-project.ts): nothing to look up.
        where exists (select 1 from search_blocks x where x.project_id = o.project_id);
      if dc is not null then perform stoa_search_remove(pr, dc, tm); end if;
      return null;
    end $$`,
    `create trigger search_docs_unposted after delete on search_docs
      referencing old table as old_rows for each statement execute function search_docs_unpost()`,
    `drop trigger search_docs_visibility on search_docs`,
    `drop function search_docs_visibility()`,
    // Pack what migration 011 stored, a project at a time. The term counts move over as they are.
    `update search_docs d set terms = t.terms from (
      select doc_id, array_agg(term order by term) as terms from search_postings group by doc_id) t where t.doc_id = d.id`,
    `alter table search_blocks disable trigger search_blocks_inserted`,
    `insert into search_blocks (project_id, term, first_doc, last_doc, n, p, bnd)
      select g.project_id, g.term, g.first_doc, k.last_doc, k.n, k.p, k.bnd
      from (select project_id, term, min(doc_id) as first_doc, array_agg(doc_id) as docs, array_agg(tf_title) as tt,
          array_agg(tf_body) as tb, array_agg(ntokens) as dl
        from (select *, (row_number() over (partition by project_id, term order by doc_id) - 1) / 128 as blk from search_postings) s
        group by project_id, term, blk) g
      cross join lateral stoa_search_pack(null, null, g.docs, g.tt, g.tb, g.dl) k`,
    `alter table search_blocks enable trigger search_blocks_inserted`,
    `drop table search_postings`,
    `drop function search_postings_count()`,
    `drop function stoa_search_rank(text, text[], text[], text[], int8[], text, text, text, int, int, int, float8, float8, float8, float8, float8, float8, boolean)`,
    `create function stoa_search_rank(${PARAMS.join(', ')})
    returns table (id bigint, kind text, ref_id text, path text, title text, updated_at text, score float8, body text)
    language plpgsql stable set plan_cache_mode = force_generic_plan as $$${RANK_BODY}$$`,
    `analyze search_docs`,
    `analyze search_blocks`,
    `analyze search_term_df`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}

export const PARAMS = [
  'p_project text',
  'p_terms text[]',
  'p_visibility text[]',
  'p_kinds text[]',
  'p_exclude int8[]',
  'p_exact text',
  'p_lo text',
  'p_hi text',
  'p_need int',
  'p_limit int',
  'p_offset int',
  'p_title_w float8',
  'p_body_w float8',
  'p_k1 float8',
  'p_k1_plus_1 float8',
  'p_b float8',
  'p_one_minus_b float8',
  'p_with_body boolean',
];

/**
 * BM25 as FTS5's bm25() (same formula, constants passed in, as migration 027), over blocks, with pruning:
 *
 * 1. Each block of the query's terms gets a bound: its term's best possible score in it (the best of its bound
 *    points) plus the other terms' best scores anywhere. No document of the block can score above it.
 * 2. The blocks with the highest bounds, enough to hold 4× the page, are scored (exactly for a one-term query,
 *    a lower bound of each document's score otherwise) and checked in score order against the filters; the k-th
 *    (k = offset + limit) document passing is the threshold θ: at least k documents score θ or more.
 * 3. Only blocks whose bound reaches θ can hold a document of the page; they are scored alone (every document
 *    left out scores below θ, so below the page), and the candidates checked against the filters (visibility,
 *    kinds, folder) in score order until k are found and the ties after the k-th.
 *
 * Nothing a filter rejects takes a place, and the order is that of scoring every posting. The bound is compared
 * with a margin of 1e-9 (relative), so that floating-point rounding cannot drop a block whose best ties θ.
 */
const score = `sum(i.idf * ((u.tt * p_title_w + u.tb * p_body_w) * p_k1_plus_1)
          / ((u.tt * p_title_w + u.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * u.dl / v_avgdl)))`;
const candidates = (blocks: string) => `
        select u.doc, ${score} as score
        from search_blocks b join unnest(v_terms, v_idf) as i(term, idf) on i.term = b.term
        cross join lateral unnest(b.p[:][1:1], b.p[:][2:2], b.p[:][3:3], b.p[:][4:4]) as u(doc, tt, tb, dl)
        where b.id = any(${blocks}) and (p_exclude is null or u.doc <> all(p_exclude))
        group by u.doc having count(*) >= p_need
        order by score desc, u.doc`;
const visible = `exists (select 1 from search_docs d where d.id = r.doc and d.visibility = any(p_visibility)
            and (p_kinds is null or d.kind = any(p_kinds))
            and (p_lo is null or d.path = p_exact or (d.path ~>=~ p_lo and d.path ~<~ p_hi)))`;
const RANK_BODY = `
    #variable_conflict use_column
    declare
      v_avgdl float8; v_n float8; v_k int := p_offset + p_limit;
      v_terms text[]; v_idf float8[]; v_ids int8[]; v_bound float8[]; v_cnt int[];
      v_first int8[]; v_theta float8 := 0; v_got int := 0; v_kth float8;
      v_hits int8[] := '{}'; v_scores float8[] := '{}'; r record; v_sum int := 0; v_i int := 0;
    begin
      select coalesce(sum(ndocs), 0)::float8, coalesce(sum(ntokens), 0)::float8 / greatest(coalesce(sum(ndocs), 0), 1)
        into v_n, v_avgdl from search_stats;
      select array_agg(q.term), array_agg(greatest(ln((v_n - h.nhit + 0.5) / (h.nhit + 0.5)), 1e-6)) into v_terms, v_idf
        from unnest(p_terms) as q(term)
        cross join lateral (select coalesce(sum(x.ndocs), 0)::float8 as nhit from search_term_df x where x.term = q.term collate "C") h;
      with blk as (
        select b.id, b.term, b.n, i.idf * (select max(((bp.tt * p_title_w + bp.tb * p_body_w) * p_k1_plus_1)
            / ((bp.tt * p_title_w + bp.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * bp.dl / v_avgdl)))
          from unnest((coalesce(b.bnd, (b.p[:][2:4])::int4[]))[:][1:1], (coalesce(b.bnd, (b.p[:][2:4])::int4[]))[:][2:2],
            (coalesce(b.bnd, (b.p[:][2:4])::int4[]))[:][3:3]) as bp(tt, tb, dl)) as ub
        from unnest(v_terms, v_idf) as i(term, idf)
        join search_blocks b on b.project_id = p_project and b.term = i.term collate "C"),
      mx as (select term, max(ub) as m from blk group by term),
      tot as (select coalesce(sum(m), 0) as s from mx)
      select array_agg(blk.id order by blk.ub + (tot.s - mx.m) desc), array_agg(blk.ub + (tot.s - mx.m) order by blk.ub + (tot.s - mx.m) desc),
        array_agg(blk.n order by blk.ub + (tot.s - mx.m) desc)
        into v_ids, v_bound, v_cnt
        from blk join mx on mx.term = blk.term cross join tot;
      if v_ids is null then return; end if;
      -- Step 2: the best-bounded blocks holding 4× the page give θ.
      while v_i < cardinality(v_ids) and v_sum < 4 * v_k loop
        v_i := v_i + 1;
        v_sum := v_sum + v_cnt[v_i];
      end loop;
      if v_i < cardinality(v_ids) then
        v_first := v_ids[1:v_i];
        for r in ${candidates('v_first')} loop
          if ${visible} then
            v_got := v_got + 1;
            if v_got = v_k then v_theta := r.score; exit; end if;
          end if;
        end loop;
        v_got := 0;
        if v_theta > 0 then
          select array_agg(x.id) into v_ids from unnest(v_ids, v_bound) as x(id, bound) where x.bound >= v_theta * (1 - 1e-9);
        end if;
      end if;
      -- Step 3: the blocks that can reach θ, candidates in score order until the page and its ties are found.
      for r in ${candidates('v_ids')} loop
        exit when v_got >= v_k and r.score < v_kth;
        if ${visible} then
          v_got := v_got + 1;
          v_hits := v_hits || r.doc;
          v_scores := v_scores || r.score;
          if v_got = v_k then v_kth := r.score; end if;
        end if;
      end loop;
      return query
        select d.id, d.kind, d.ref_id, d.path, d.title, d.updated_at, s.score, case when p_with_body then bd.body end
        from unnest(v_hits, v_scores) as s(id, score) join search_docs d on d.id = s.id
        left join search_bodies bd on p_with_body and bd.doc_id = d.id
        order by s.score desc, d.path collate "C", d.ref_id collate "C"
        limit p_limit offset p_offset;
    end`;
