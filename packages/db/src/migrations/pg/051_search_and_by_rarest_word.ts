import { sql, type Kysely } from 'kysely';
// The ranking's parameters are those of migration 040's function; its steps are migration 049's, step 1 with a filter
// and steps 2 and 3 with this migration's candidates.
import { PARAMS } from './040_search_blocks.js';
import { rankStep1, rankSteps2And3 } from './049_search_blocks_compact.js';

/**
 * Migration 051: a search for every word reads the other words' blocks only where the rarest word can be, and
 * a document's score is summed in the order of the query's words (issue 30, item 4;
 * docs/decisions/0038-pg-search-and-by-rarest-word.md).
 *
 * A document with every word has the rarest one. Where that word has few postings (at most 1,024 in all
 * projects), its documents are read first, sorted; a block of another word whose range of documents
 * (`first_doc` … `last_doc`) holds none of them cannot hold a document with every word, and is left out before
 * the bounds and θ are computed. So a word of a few dozen pages beside one in every fifth page scores a few
 * dozen of the common word's blocks, not all of them; a word with no page in the project ends the search at once.
 * What is left out holds no document the search could return, so hits and scores are unchanged; a search for
 * any word (the OR that fills a page) reads what it read before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(createRank('search_blocks')).execute(db);
}

/** How the candidates of steps 2 and 3 are read: from `relation`, the postings of the blocks whose ids `blocks` holds. */
export type Candidates = (relation: string) => (blocks: string) => string;

/**
 * The statement that (re)creates `stoa_search_rank` with this migration's steps over `blocks`, a relation with
 * `search_blocks`' columns (the table here, migration 052's view of blocks and single postings), its candidates
 * read by `candidatesOf` (this migration's, or migration 053's).
 */
export function createRank(blocks: string, candidatesOf: Candidates = candidates): string {
  return `create or replace function stoa_search_rank(${PARAMS.join(', ')})
    returns table (id bigint, kind text, ref_id text, path text, title text, updated_at text, score float8, body text)
    language plpgsql stable set plan_cache_mode = force_generic_plan set jit = off as $$${rankBody(blocks, candidatesOf)}$$`;
}

/**
 * The documents of some blocks with their scores, best first. A document's terms are added in the query's order,
 * as FTS5's bm25() adds its phrases: summed in the order rows happened to arrive, two documents with the same
 * frequencies and lengths could differ in the last bit and leave the path tie-break (bench/README.md,
 * "Searches for every word driven by the rarest"). The sorted subquery fixes the order each document's rows reach
 * `sum`, under a hash or a sorted grouping alike.
 */
const candidates: Candidates = (relation) => (blocks) => `
        select x.doc, sum(x.score) as score from (
          select b.first_doc + u.d as doc, i.o, i.idf * ((u.tt * p_title_w + u.tb * p_body_w) * p_k1_plus_1)
            / ((u.tt * p_title_w + u.tb * p_body_w) + p_k1 * (p_one_minus_b + p_b * u.dl / v_avgdl)) as score
          from ${relation} b join unnest(v_terms, v_idf) with ordinality as i(term, idf, o) on i.term = b.term
          cross join lateral unnest(b.p[:][1:1], b.p[:][2:2], b.p[:][3:3], b.p[:][4:4]) as u(d, tt, tb, dl)
          where b.id = any(${blocks}) and (p_exclude is null or b.first_doc + u.d <> all(p_exclude))
          order by 1, 2) x
        group by x.doc having count(*) >= p_need
        order by score desc, x.doc`;

/** The most postings the rarest word may have in all projects for its documents to be read first. */
const RARE_POSTINGS = 1024;

/**
 * Migration 049's ranking with its first step changed and its candidates summed in order: for a search of every
 * word (`p_need` = the number of words) the blocks are those the rarest word's documents allow.
 * `width_bucket(x, v_docs)` is how many of the sorted documents are ≤ x, so a range [f, l] holds one where it
 * differs at l and f − 1.
 */
const rankBody = (blocks: string, candidatesOf: Candidates) => `
    #variable_conflict use_column
    declare
      v_avgdl float8; v_n float8; v_k int := p_offset + p_limit;
      v_terms text[]; v_idf float8[]; v_nhit float8[]; v_ids int8[]; v_bound float8[]; v_cnt int[];
      v_rare text; v_docs int8[];
      v_first int8[]; v_theta float8 := 0; v_got int := 0; v_kth float8;
      v_hits int8[] := '{}'; v_scores float8[] := '{}'; r record; v_sum int := 0; v_i int := 0;
    begin
      select coalesce(sum(ndocs), 0)::float8, coalesce(sum(ntokens), 0)::float8 / greatest(coalesce(sum(ndocs), 0), 1)
        into v_n, v_avgdl from search_stats;
      select array_agg(q.term order by q.o), array_agg(greatest(ln((v_n - h.nhit + 0.5) / (h.nhit + 0.5)), 1e-6) order by q.o),
          array_agg(h.nhit order by q.o)
        into v_terms, v_idf, v_nhit
        from unnest(p_terms) with ordinality as q(term, o)
        cross join lateral (select coalesce(sum(x.n), 0)::float8 as nhit from ${blocks} x where x.term = q.term collate "C") h;
      if p_need > 1 and p_need >= cardinality(v_terms) then
        select x.term into v_rare from unnest(v_terms, v_nhit) as x(term, nhit) where x.nhit <= ${RARE_POSTINGS}
          order by x.nhit, x.term limit 1;
        if v_rare is not null then
          select coalesce(array_agg(b.first_doc + u.d order by b.first_doc + u.d), '{}') into v_docs
            from ${blocks} b cross join lateral unnest(b.p[:][1:1]) as u(d)
            where b.term = v_rare collate "C" and b.project_id = p_project;
          if cardinality(v_docs) = 0 then return; end if;
        end if;
      end if;
${rankStep1(
  `
        where v_docs is null or b.term = v_rare or width_bucket(b.last_doc, v_docs) > width_bucket(b.first_doc - 1, v_docs)`,
  blocks,
)}${rankSteps2And3(candidatesOf(blocks))}`;
