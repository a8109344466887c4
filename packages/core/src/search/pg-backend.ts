import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '@stoa/db';
import type { IndexTerms } from './terms.js';
import { BM25_B, BM25_K1, type SearchTuning } from './tuning.js';
import type { RankRequest, RankedRow, SearchDocInput } from './types.js';

/** Each distinct term of a document with its title and body frequencies (what one posting row holds). */
function postingsOf(terms: IndexTerms): { term: string[]; title: number[]; body: number[] } {
  const counts = new Map<string, [number, number]>();
  for (const t of terms.title) {
    const c = counts.get(t) ?? [0, 0];
    c[0]++;
    counts.set(t, c);
  }
  for (const t of terms.body) {
    const c = counts.get(t) ?? [0, 0];
    c[1]++;
    counts.set(t, c);
  }
  const out = { term: [] as string[], title: [] as number[], body: [] as number[] };
  for (const [term, [a, b]] of counts) {
    out.term.push(term);
    out.title.push(a);
    out.body.push(b);
  }
  return out;
}

/**
 * Writes one document into `search_docs`, `search_bodies` and `search_postings` (PostgreSQL) in one statement,
 * replacing an earlier version with the same (project, kind, ref): postings of terms the document no longer
 * has are deleted, the others inserted or updated. Triggers keep the term and table statistics (migration 011).
 * Runs on whatever `db` is (a transaction, if the caller is in one).
 *
 * @example
 * await pgUpsert(trx, doc, indexTerms(doc.title, doc.body, DEFAULT_TUNING));
 */
export async function pgUpsert(db: Kysely<DB>, doc: SearchDocInput, terms: IndexTerms, embedHash: string): Promise<void> {
  const ntokens = terms.title.length + terms.body.length;
  const p = postingsOf(terms);
  // The delete and the insert touch disjoint postings (terms gone / terms present), so running them in one
  // statement's snapshot is safe.
  await sql`
    with d as (
      insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
      values (${doc.projectId}, ${doc.kind}, ${doc.refId}, ${doc.path}, ${doc.title}, ${doc.visibility}, ${doc.updatedAt}, ${ntokens})
      on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
        visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens
      returning id),
    b as (
      insert into search_bodies (doc_id, body) select id, ${doc.body} from d
      on conflict (doc_id) do update set body = excluded.body),
    stale as (
      delete from search_vectors x using d where x.doc_id = d.id and x.text_hash <> ${embedHash}),
    gone as (
      delete from search_postings x using d
      where x.doc_id = d.id and x.term <> all(cast(${p.term} as text[])))
    insert into search_postings (project_id, term, doc_id, tf_title, tf_body, ntokens, kind, visibility)
    select ${doc.projectId}, t.term, d.id, t.a, t.b, ${ntokens}, ${doc.kind}, ${doc.visibility}
    from d cross join unnest(cast(${p.term} as text[]), cast(${p.title} as int4[]), cast(${p.body} as int4[])) as t(term, a, b)
    order by t.term collate "C"
    on conflict (project_id, term, doc_id) do update set tf_title = excluded.tf_title, tf_body = excluded.tf_body,
      ntokens = excluded.ntokens, visibility = excluded.visibility`.execute(db);
}

/** Filters on the `p` alias of search_postings: project, visibility, kinds, excluded ids, path prefix. */
function postingFilters(req: RankRequest): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`p.visibility = any(cast(${req.visibility} as text[]))`];
  if (req.kinds) parts.push(sql`p.kind = any(cast(${req.kinds} as text[]))`);
  if (req.exclude && req.exclude.length > 0) parts.push(sql`p.doc_id <> all(cast(${req.exclude} as int8[]))`);
  if (req.pathPrefix !== undefined && req.pathPrefix !== '') {
    const pre = req.pathPrefix;
    const like = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // LIKE with a constant prefix walks search_docs_path (text_pattern_ops); it is case-sensitive here.
    const inPath = pre.endsWith('/') ? sql`d.path like ${like(pre)}` : sql`(d.path = ${pre} or d.path like ${like(`${pre}/`)})`;
    parts.push(sql`p.doc_id in (select d.id from search_docs d where d.project_id = ${req.projectId} and ${inPath})`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * Ranks the documents matching all (AND) or any (OR) of the terms with the BM25 formula of SQLite's FTS5
 * `bm25()` — same k1, b, idf (with its 1e-6 floor), column weights and whole-table statistics — so both back
 * ends return the same order and scores.
 *
 * Only the postings of the query's terms in this project are read (one index range per term); visibility and
 * the other filters apply to them before scoring, and `search_docs` is joined for the page of hits alone.
 * The inner page keeps rows tied on score (WITH TIES), so the path / ref tie-break is the same as SQLite's.
 *
 * @example
 * const rows = await pgRank(db, { projectId, terms: ['refund'], visibility: ['project'], limit: 10, offset: 0, op: 'OR' }, DEFAULT_TUNING);
 */
export async function pgRank(db: Kysely<DB>, req: RankRequest, tuning: SearchTuning): Promise<RankedRow[]> {
  // float8 throughout: a numeric literal times an integer column would be numeric arithmetic, several times slower.
  const k1 = sql`${sql.lit(BM25_K1)}::float8`;
  const tf = sql`(p.tf_title * ${sql.lit(tuning.titleWeight)}::float8 + p.tf_body * ${sql.lit(tuning.bodyWeight)}::float8)`;
  const all = req.op === 'AND' && req.terms.length > 1 ? sql`having count(*) = ${req.terms.length}` : sql``;
  const { rows } = await sql<RankedRow>`
    with st as (
      select coalesce(sum(ndocs), 0)::float8 as n, coalesce(sum(ntokens), 0)::float8 / greatest(coalesce(sum(ndocs), 0), 1) as avgdl
      from search_stats),
    idf as (
      select q.term, greatest(ln((st.n - h.nhit + 0.5) / (h.nhit + 0.5)), 1e-6) as idf
      from unnest(cast(${req.terms} as text[])) as q(term) cross join st
      cross join lateral (select coalesce(sum(x.ndocs), 0)::float8 as nhit from search_term_df x where x.term = q.term collate "C") h),
    scored as (
      select p.doc_id, sum(idf.idf * (${tf} * ${sql.lit(BM25_K1 + 1)})
        / (${tf} + ${k1} * (${sql.lit(1 - BM25_B)}::float8 + ${sql.lit(BM25_B)}::float8 * p.ntokens / st.avgdl))) as score
      from idf cross join st
      join search_postings p on p.project_id = ${req.projectId} and p.term = idf.term collate "C"
      where ${postingFilters(req)}
      group by p.doc_id ${all}
      order by score desc
      fetch first (${req.offset + req.limit}) rows with ties)
    select d.id, d.kind, d.ref_id as "refId", d.path, d.title, d.updated_at as "updatedAt", s.score${req.withBody ? sql`, b.body` : sql``}
    from scored s join search_docs d on d.id = s.doc_id ${req.withBody ? sql`left join search_bodies b on b.doc_id = d.id` : sql``}
    order by s.score desc, d.path collate "C", d.ref_id collate "C"
    limit ${req.limit} offset ${req.offset}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score), ...(req.withBody ? { body: r.body ?? '' } : {}) }));
}
