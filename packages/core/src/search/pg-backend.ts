import { sql, type Kysely } from 'kysely';
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

/**
 * The path-prefix bounds `stoa_search_rank` takes: a folder's own path (`exact`, unless the prefix ends in `/`)
 * and the range [lo, hi) of the paths under it. hi is lo with its final `/` raised to `0`, the next byte, so the
 * range holds exactly the paths that start with lo.
 *
 * @example
 * prefixBounds('docs') // { exact: 'docs', lo: 'docs/', hi: 'docs0' }
 */
function prefixBounds(pre: string | undefined): { exact: string | null; lo: string | null; hi: string | null } {
  if (pre === undefined || pre === '') return { exact: null, lo: null, hi: null };
  const lo = pre.endsWith('/') ? pre : `${pre}/`;
  return { exact: pre.endsWith('/') ? null : pre, lo, hi: `${lo.slice(0, -1)}0` };
}

/**
 * Ranks the documents matching all (AND) or any (OR) of the terms with the BM25 formula of SQLite's FTS5
 * `bm25()` — same k1, b, idf (with its 1e-6 floor), column weights and whole-table statistics — so both back
 * ends return the same order and scores.
 *
 * One call of `stoa_search_rank` (migration 027), whose plan PostgreSQL keeps per connection: only the postings
 * of the query's terms in this project are read (one index range per term); visibility and the other filters
 * apply to them before scoring, and `search_docs` is joined for the page of hits alone. The inner page keeps
 * rows tied on score (WITH TIES), so the path / ref tie-break is the same as SQLite's.
 *
 * @example
 * const rows = await pgRank(db, { projectId, terms: ['refund'], visibility: ['project'], limit: 10, offset: 0, op: 'OR' }, DEFAULT_TUNING);
 */
export async function pgRank(db: Kysely<DB>, req: RankRequest, tuning: SearchTuning): Promise<RankedRow[]> {
  const { exact, lo, hi } = prefixBounds(req.pathPrefix);
  const need = req.op === 'AND' ? req.terms.length : 1;
  const exclude = req.exclude && req.exclude.length > 0 ? req.exclude : null;
  // The constants are computed here, as for SQLite, so both back ends do the same floating-point arithmetic.
  const { rows } = await sql<RankedRow>`
    select id, kind, ref_id as "refId", path, title, updated_at as "updatedAt", score, body
    from stoa_search_rank(${req.projectId}, cast(${req.terms} as text[]), cast(${req.visibility} as text[]),
      cast(${req.kinds ?? null} as text[]), cast(${exclude} as int8[]), ${exact}, ${lo}, ${hi}, ${need}, ${req.limit}, ${req.offset},
      ${tuning.titleWeight}, ${tuning.bodyWeight}, ${BM25_K1}, ${BM25_K1 + 1}, ${BM25_B}, ${1 - BM25_B}, ${req.withBody === true})`.execute(db);
  return rows.map((r) => {
    const { body, ...row } = r;
    return { ...row, id: Number(r.id), score: Number(r.score), ...(req.withBody ? { body: body ?? '' } : {}) };
  });
}
