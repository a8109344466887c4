import { sql, type Kysely } from 'kysely';
// The ranking is migration 051's over migration 052's view; only the reading of its candidates changes.
import { createRank, type Candidates } from './051_search_and_by_rarest_word.js';

/**
 * Migration 053: the ranking unnests a block's postings in its select list instead of in a lateral `FROM` item
 * (issue 30, item 4; docs/decisions/0040-pg-search-postings-in-select-list.md).
 *
 * `cross join lateral unnest(a, b, c, d)` is a function scan, which PostgreSQL fills into a tuple store per
 * function and reads back before the first row moves on; the same four `unnest` calls in a select list run in
 * step, a row at a time (a ProjectSet node), with nothing stored. The rows, their order before `sum` (by document,
 * then the word's place in the query) and every score are the same; a search for every word of two or three
 * common words, which reads every posting of each, spends ≈ 15–20 % less (bench/README.md, "Single postings in
 * narrow rows, and postings unnested in the select list").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(createRank('search_all_blocks', candidates)).execute(db);
}

const candidates: Candidates = (relation) => (blocks) => `
        select x.doc, sum(x.score) as score from (
          select u.first_doc + u.d as doc, u.o, u.idf * ((u.tt * p_title_w + u.tb * p_body_w) * p_k1_plus_1)
            / ((u.tt * p_title_w + u.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * u.dl / v_avgdl)) as score
          from (
            select b.first_doc, i.o, i.idf,
              unnest(b.p[:][1:1]) as d, unnest(b.p[:][2:2]) as tt, unnest(b.p[:][3:3]) as tb, unnest(b.p[:][4:4]) as dl
            from ${relation} b join unnest(v_terms, v_idf) with ordinality as i(term, idf, o) on i.term = b.term
            where b.id = any(${blocks})) u
          where p_exclude is null or u.first_doc + u.d <> all(p_exclude)
          order by 1, 2) x
        group by x.doc having count(*) >= p_need
        order by score desc, x.doc`;
