import { sql, type Kysely } from 'kysely';

/**
 * The BM25 ranking of packages/core/src/search/pg-backend.ts as one server-side function, `stoa_search_rank`.
 *
 * Sent as a statement, the ranking was parsed and planned anew on every search (Kysely's pg driver sends
 * unnamed statements, which PostgreSQL plans with their parameter values): two thirds of a search's time on
 * PostgreSQL, and what kept it at 3–4× SQLite's (bench/README.md "Search on PostgreSQL"). A PL/pgSQL function
 * keeps its statements' plans for the life of the connection, and `plan_cache_mode = force_generic_plan` makes
 * that one plan from the first call: the statement's shape (postings read by the index range of each query
 * term, filtered, grouped, the top page joined to search_docs) does not depend on the values.
 *
 * A search within a folder is planned on each call instead (EXECUTE), with the folder's bounds as values: how
 * many documents a folder holds decides whether reading the folder's documents first or the terms' postings
 * first is cheaper, and only a plan made for the values knows. The folder is a range on `search_docs_path`
 * (`~>=~` / `~<~`, the operators of its text_pattern_ops class): `p_lo` ≤ path < `p_hi`, or path = `p_exact`;
 * the caller passes the bounds (pgRank). `p_need` is how many of the terms a document must
 * have: all of them for AND, 1 for OR. The formula is FTS5's bm25(), with the constants passed in so that
 * both back ends compute the same floating-point values.
 */
const ranking = (pathFilter: string) => `
    with st as (
      select coalesce(sum(ndocs), 0)::float8 as n, coalesce(sum(ntokens), 0)::float8 / greatest(coalesce(sum(ndocs), 0), 1) as avgdl
      from search_stats),
    idf as (
      select q.term, greatest(ln((st.n - h.nhit + 0.5) / (h.nhit + 0.5)), 1e-6) as idf
      from unnest(p_terms) as q(term) cross join st
      cross join lateral (select coalesce(sum(x.ndocs), 0)::float8 as nhit from search_term_df x where x.term = q.term collate "C") h),
    scored as (
      select p.doc_id, sum(idf.idf * ((p.tf_title * p_title_w + p.tf_body * p_body_w) * p_k1_plus_1)
        / ((p.tf_title * p_title_w + p.tf_body * p_body_w) + p_k1 * (p_one_minus_b + p_b * p.ntokens / st.avgdl))) as score
      from idf cross join st
      join search_postings p on p.project_id = p_project and p.term = idf.term collate "C"
      where p.visibility = any(p_visibility)
        and (p_kinds is null or p.kind = any(p_kinds))
        and (p_exclude is null or p.doc_id <> all(p_exclude))${pathFilter}
      group by p.doc_id having count(*) >= p_need
      order by score desc
      fetch first (p_offset + p_limit) rows with ties)
    select d.id, d.kind, d.ref_id, d.path, d.title, d.updated_at, s.score, case when p_with_body then b.body end
    from scored s join search_docs d on d.id = s.doc_id left join search_bodies b on p_with_body and b.doc_id = d.id
    order by s.score desc, d.path collate "C", d.ref_id collate "C"
    limit p_limit offset p_offset`;

const inPath = `
        and p.doc_id in (select d.id from search_docs d where d.project_id = p_project
          and (d.path = p_exact or (d.path ~>=~ p_lo and d.path ~<~ p_hi)))`;

const PARAMS = [
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
const NAMES = PARAMS.map((p) => p.split(' ')[0]!);
/** The statement with the function's parameters as EXECUTE's $1…$n, in the order of `NAMES`. */
const numbered = (text: string) => text.replace(/\bp_[a-z0-9_]+\b/g, (name) => `$${NAMES.indexOf(name) + 1}`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function stoa_search_rank(${PARAMS.join(', ')})
    returns table (id bigint, kind text, ref_id text, path text, title text, updated_at text, score float8, body text)
    language plpgsql stable set plan_cache_mode = force_generic_plan as $$
    #variable_conflict use_column
    begin
      if p_lo is null then
        return query ${ranking('')};
      else
        return query execute $q$${numbered(ranking(inPath))}$q$ using ${NAMES.join(', ')};
      end if;
    end $$`,
    )
    .execute(db);
}
