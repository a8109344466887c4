import { sql, type Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import { docFilters } from './sqlite-backend.js';
import { pgLexeme, pgQuery, pgVector, type IndexTerms } from './terms.js';
import { BM25_B, BM25_K1, type SearchTuning } from './tuning.js';
import type { RankRequest, RankedRow, SearchDocInput } from './types.js';

/**
 * Writes one document into `search_docs` (PostgreSQL) with its tsvector, replacing an earlier version with
 * the same (project, kind, ref). Runs on whatever `db` is (a transaction, if the caller is in one).
 *
 * @example
 * await pgUpsert(trx, doc, indexTerms(doc.title, doc.body, DEFAULT_TUNING));
 */
export async function pgUpsert(db: Kysely<DB>, doc: SearchDocInput, terms: IndexTerms): Promise<void> {
  const ntokens = terms.title.length + terms.body.length;
  const { rows } = await sql<{ id: number }>`
    insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens, tsv)
    values (${doc.projectId}, ${doc.kind}, ${doc.refId}, ${doc.path}, ${doc.title}, ${doc.visibility}, ${doc.updatedAt},
            ${ntokens}, cast(${pgVector(terms)} as tsvector))
    on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
      visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens, tsv = excluded.tsv
    returning id`.execute(db);
  await sql`insert into search_bodies (doc_id, body) values (${rows[0]!.id}, ${doc.body})
    on conflict (doc_id) do update set body = excluded.body`.execute(db);
}

/**
 * Ranks the documents matching all (AND) or any (OR) of the terms with the BM25 formula of SQLite's FTS5 `bm25()` — same k1, b, idf (with its 1e-6
 * floor), column weights and whole-table statistics — so both back ends return the same order and scores.
 * The GIN index finds the candidates; term frequencies come from the tsvector positions.
 *
 * @example
 * const rows = await pgRank(db, { projectId, terms: ['refund'], visibility: ['project'], limit: 10, offset: 0, op: 'OR' }, DEFAULT_TUNING);
 */
export async function pgRank(db: Kysely<DB>, req: RankRequest, tuning: SearchTuning): Promise<RankedRow[]> {
  const lits = req.terms.map(pgLexeme);
  const wt = sql.lit(tuning.titleWeight);
  const wb = sql.lit(tuning.bodyWeight);
  const { rows } = await sql<RankedRow>`
    with q as (select * from unnest(cast(${req.terms} as text[]), cast(${lits} as text[])) as q(term, lit)),
    st as (select count(*)::float8 as n, coalesce(avg(ntokens), 0)::float8 as avgdl from search_docs),
    idf as (
      select q.term, greatest(ln((st.n - h.nhit + 0.5) / (h.nhit + 0.5)), 1e-6) as idf
      from q cross join st
      cross join lateral (select count(*)::float8 as nhit from search_docs x where x.tsv @@ cast(q.lit as tsquery)) h),
    cand as (
      select d.id, d.kind, d.ref_id, d.path, d.title, d.updated_at, d.ntokens, d.tsv
      from search_docs d
      where d.tsv @@ cast(${pgQuery(req.terms, req.op)} as tsquery) and ${docFilters(req)}),
    scored as (
      select c.id, sum(idf.idf * (f.tf * ${sql.lit(BM25_K1 + 1)})
        / (f.tf + ${sql.lit(BM25_K1)} * (${sql.lit(1 - BM25_B)} + ${sql.lit(BM25_B)} * c.ntokens / st.avgdl))) as score
      from cand c cross join st
      cross join lateral (
        select u.lexeme,
          (select sum(case when w = 'A' then ${wt} else ${wb} end) from unnest(u.weights) w)::float8 as tf
        from unnest(c.tsv) u where u.lexeme = any(cast(${req.terms} as text[]))) f
      join idf on idf.term = f.lexeme
      group by c.id)
    select c.id, c.kind, c.ref_id as "refId", c.path, c.title, c.updated_at as "updatedAt", s.score
    from cand c join scored s on s.id = c.id
    order by s.score desc, c.path collate "C", c.ref_id collate "C"
    limit ${req.limit} offset ${req.offset}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
}
