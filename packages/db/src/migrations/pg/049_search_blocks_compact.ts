import { sql, type Kysely } from 'kysely';
// The ranking's parameters are those of migration 040's function, which this one replaces.
import { PARAMS } from './040_search_blocks.js';

/**
 * Migration 049: the PostgreSQL search index in fewer bytes (issue 30, item 4;
 * docs/decisions/0034-pg-search-compact-blocks.md). Measured at 10,000 pages (bench/README.md, "Smaller blocks,
 * no term table"): most of `search_blocks`' file was free space left by rewritten rows, then the postings
 * themselves, then `search_term_df`.
 *
 * - `search_blocks.p` holds [document − first_doc, title frequency, body frequency, length] as `int4` (16 bytes a
 *   posting, was 32 as `int8`). A block's documents lie within 2³¹ − 1 of its `first_doc`: new blocks are cut
 *   there and a home block is not filled past it.
 * - `search_term_df` and the statement triggers that kept it are gone: a term's document count is the sum of
 *   `n` over its blocks in all projects (FTS5's statistics are those of the whole table), read by the ranking
 *   through `search_blocks_term`, which now leads with the term (`search_blocks_project` finds a project's blocks).
 *   One row less per distinct term, no trigger per write, and the count is that of the ranking's own snapshot.
 * - `search_blocks` leaves a fifth of each page free (`fillfactor` 80), so that a block gaining postings is
 *   rewritten in its own page (a HOT update; PostgreSQL reclaims the old version when it next reads the page)
 *   instead of at the table's end, where the old version's space waited for a vacuum.
 *
 * The table is rewritten once here (ALTER COLUMN … TYPE), which also drops the free space of earlier builds;
 * it holds an exclusive lock on the table meanwhile (searches and saves of all projects wait).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `drop trigger search_blocks_inserted on search_blocks`,
    `drop trigger search_blocks_updated on search_blocks`,
    `drop trigger search_blocks_deleted on search_blocks`,
    `drop function search_blocks_count()`,
    `drop table search_term_df`,
    `drop index search_blocks_term`,
    `alter table search_blocks set (fillfactor = 80)`,
    // For the rewrite below only: an ALTER … USING expression cannot hold a subquery.
    `create function stoa_search_rebase(p int8[], first_doc bigint) returns int4[] language sql immutable as $$
      select coalesce(array_agg(array[(o.doc - first_doc)::int4, o.tt::int4, o.tb::int4, o.dl::int4] order by o.doc), '{}')
      from unnest(p[:][1:1], p[:][2:2], p[:][3:3], p[:][4:4]) as o(doc, tt, tb, dl) $$`,
    `alter table search_blocks alter column p type int4[] using stoa_search_rebase(p, first_doc)`,
    `drop function stoa_search_rebase(int8[], bigint)`,
    `create index search_blocks_term on search_blocks (term, project_id, first_doc)`,
    // A project's blocks, for deleting a project (delete-project.ts) and search_docs_unpost's check: a few bytes a
    // block, as B-tree deduplication stores each project id once per page.
    `create index search_blocks_project on search_blocks (project_id)`,
    `drop function stoa_search_replace(text[], int8[], text[], text[], int8[], text[], int4[], int4[], int4[])`,
    `drop function stoa_search_add(text[], int8[], text[], int4[], int4[], int4[])`,
    `drop function stoa_search_remove(text[], int8[], text[])`,
    `drop function stoa_search_pack(int8[], int8[], int8[], int4[], int4[], int4[])`,
    // As migration 040's, with documents stored as offsets from the block's p_first (p_old already is).
    `create function stoa_search_pack(p_first int8, p_old int4[], p_gone int8[], p_docs int8[], p_tt int4[], p_tb int4[], p_dl int4[],
      out n integer, out last_doc bigint, out p int4[], out bnd int4[])
    language sql immutable as $$
      with u as (
        select p_first + o.doc as doc, o.tt, o.tb, o.dl
        from unnest(p_old[:][1:1], p_old[:][2:2], p_old[:][3:3], p_old[:][4:4]) as o(doc, tt, tb, dl)
        where p_gone is null or p_first + o.doc <> all(p_gone)
        union all select * from unnest(p_docs, p_tt, p_tb, p_dl)),
      m as (select greatest(avg(dl), 1)::float8 as avgdl from u),
      r as (select u.*, row_number() over (order by (3 * u.tt + u.tb) / ((3 * u.tt + u.tb) + 1.2 * (0.25 + 0.75 * u.dl / m.avgdl)) desc, u.doc) as r
        from u cross join m),
      g as (select max(tt) as tt, max(tb) as tb, min(dl) as dl from r group by case when r <= 4 then r else 5 + (r - 5) / 16 end)
      select count(*)::int, max(doc), coalesce(array_agg(array[(doc - p_first)::int4, tt, tb, dl] order by doc), '{}'),
        case when count(*) > 4 then (select array_agg(array[tt, tb, dl]::int4[]) from g) end
      from u $$`,
    // As migration 040's. A new block's documents share doc >> 31, so their offsets fit an int4; a home block
    // takes new postings only while the term's largest new document is within 2^31 - 1 of its first_doc.
    `create function stoa_search_add(p_project text[], p_doc int8[], p_term text[], p_tt int4[], p_tb int4[], p_dl int4[])
    returns void language plpgsql as $$
    begin
      with a as (
        select a.*, row_number() over (partition by a.project_id, a.term order by a.doc) as rn
        from unnest(p_project, p_term, p_doc, p_tt, p_tb, p_dl) as a(project_id, term, doc, tt, tb, dl)),
      t as (select project_id, term, min(doc) as d0, max(doc) as d1 from a group by project_id, term order by project_id, term),
      h as (select t.project_id, t.term, b.id, b.n from t cross join lateral (
          select x.id, x.n from search_blocks x where x.term = t.term collate "C" and x.project_id = t.project_id and x.first_doc <= t.d0
            and x.first_doc > t.d1 - 2147483648
          order by x.first_doc desc limit 1 for update skip locked) b),
      ah as (select a.*, h.id as home, 128 - h.n as room from a left join h on h.project_id = a.project_id and h.term = a.term and h.n < 128),
      upd as (
        update search_blocks b set (n, last_doc, p, bnd) = (
            select k.n, greatest(k.last_doc, b.last_doc), k.p, k.bnd from stoa_search_pack(b.first_doc, b.p, null, x.docs, x.tt, x.tb, x.dl) k)
          from (select home, array_agg(doc) as docs, array_agg(tt) as tt, array_agg(tb) as tb, array_agg(dl) as dl
            from ah where home is not null and rn <= room group by home) x
          where b.id = x.home)
      insert into search_blocks (project_id, term, first_doc, last_doc, n, p, bnd)
        select g.project_id, g.term, g.first_doc, k.last_doc, k.n, k.p, k.bnd
        from (select project_id, term, min(doc) as first_doc, array_agg(doc) as docs, array_agg(tt) as tt, array_agg(tb) as tb, array_agg(dl) as dl
          from ah where home is null or rn > room
          group by project_id, term, doc >> 31, (rn - coalesce(room, 0) - 1) / 128) g
        cross join lateral stoa_search_pack(g.first_doc, null, null, g.docs, g.tt, g.tb, g.dl) k
        order by g.project_id, g.term, g.first_doc;
    end $$`,
    // As migration 040's: a posting's block holds its document's offset.
    `create function stoa_search_remove(p_project text[], p_doc int8[], p_term text[])
    returns void language plpgsql as $$
    declare emptied int8[];
    begin
      with r as (select * from unnest(p_project, p_term, p_doc) as r(project_id, term, doc)),
      loc as (select b.id, r.doc from r cross join lateral (
          select x.id from search_blocks x where x.term = r.term and x.project_id = r.project_id and x.first_doc <= r.doc
            and x.last_doc >= r.doc and r.doc - x.first_doc = any(x.p[:][1:1]) order by x.first_doc desc limit 1) b),
      g as (select id, array_agg(doc) as gone from loc group by id),
      -- Blocks are locked in id order before any is changed (migration 040).
      lk as (select b.id from search_blocks b join g on g.id = b.id order by b.id for update of b),
      u as (update search_blocks b set (n, p, bnd) = (select k.n, k.p, k.bnd from stoa_search_pack(b.first_doc, b.p, g.gone, null, null, null, null) k)
        from g join lk on lk.id = g.id where b.id = g.id returning b.id, b.n)
      select array_agg(id) into emptied from u where n = 0;
      if emptied is not null then
        delete from search_blocks where id = any(emptied) and n = 0;
      end if;
    end $$`,
    `create function stoa_search_replace(r_project text[], r_doc int8[], r_term text[],
      a_project text[], a_doc int8[], a_term text[], a_tt int4[], a_tb int4[], a_dl int4[])
    returns void language plpgsql as $$
    begin
      if cardinality(r_doc) > 0 then perform stoa_search_remove(r_project, r_doc, r_term); end if;
      if cardinality(a_doc) > 0 then perform stoa_search_add(a_project, a_doc, a_term, a_tt, a_tb, a_dl); end if;
    end $$`,
    `create or replace function stoa_search_rank(${PARAMS.join(', ')})
    returns table (id bigint, kind text, ref_id text, path text, title text, updated_at text, score float8, body text)
    language plpgsql stable set plan_cache_mode = force_generic_plan set jit = off as $$${RANK_BODY}$$`,
    `analyze search_blocks`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}

/**
 * Migration 040's ranking (its steps and arithmetic unchanged; 048's `jit = off` kept), with two differences: a
 * term's document count is the sum of its blocks' `n` in all projects, and a posting's document is the block's
 * `first_doc` plus the offset stored.
 */
const score = `sum(i.idf * ((u.tt * p_title_w + u.tb * p_body_w) * p_k1_plus_1)
          / ((u.tt * p_title_w + u.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * u.dl / v_avgdl)))`;
const candidates = (blocks: string) => `
        select b.first_doc + u.d as doc, ${score} as score
        from search_blocks b join unnest(v_terms, v_idf) as i(term, idf) on i.term = b.term
        cross join lateral unnest(b.p[:][1:1], b.p[:][2:2], b.p[:][3:3], b.p[:][4:4]) as u(d, tt, tb, dl)
        where b.id = any(${blocks}) and (p_exclude is null or b.first_doc + u.d <> all(p_exclude))
        group by b.first_doc + u.d having count(*) >= p_need
        order by score desc, b.first_doc + u.d`;
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
        cross join lateral (select coalesce(sum(x.n), 0)::float8 as nhit from search_blocks x where x.term = q.term collate "C") h;
${rankStep1('')}${rankSteps2And3(candidates)}`;

/**
 * Step 1 of the ranking: every block of the query's terms in the project (those `blockFilter`, a `where` clause or
 * nothing, keeps) with its bound and the sum of the other terms' best, best-bounded first, into `v_ids`, `v_bound`
 * and `v_cnt`. Migration 051 adds its filter; migration 052 reads the blocks from a view (`blocks`).
 */
export function rankStep1(blockFilter: string, blocks = 'search_blocks'): string {
  return `      with blk as (
        select b.id, b.term, b.n, i.idf * (select max(((bp.tt * p_title_w + bp.tb * p_body_w) * p_k1_plus_1)
            / ((bp.tt * p_title_w + bp.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * bp.dl / v_avgdl)))
          from unnest((coalesce(b.bnd, b.p[:][2:4]))[:][1:1], (coalesce(b.bnd, b.p[:][2:4]))[:][2:2],
            (coalesce(b.bnd, b.p[:][2:4]))[:][3:3]) as bp(tt, tb, dl)) as ub
        from unnest(v_terms, v_idf) as i(term, idf)
        join ${blocks} b on b.term = i.term collate "C" and b.project_id = p_project${blockFilter}),
      mx as (select term, max(ub) as m from blk group by term),
      tot as (select coalesce(sum(m), 0) as s from mx)
      select array_agg(blk.id order by blk.ub + (tot.s - mx.m) desc), array_agg(blk.ub + (tot.s - mx.m) order by blk.ub + (tot.s - mx.m) desc),
        array_agg(blk.n order by blk.ub + (tot.s - mx.m) desc)
        into v_ids, v_bound, v_cnt
        from blk join mx on mx.term = blk.term cross join tot;
`;
}

/**
 * Steps 2 and 3 of the ranking, and its answer: θ from the best-bounded blocks, then the candidates of the blocks
 * that can reach it in score order until the page and its ties are found. Migration 051 runs them with its own
 * `candidates`.
 */
export function rankSteps2And3(candidates: (blocks: string) => string): string {
  return `      if v_ids is null then return; end if;
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
}
