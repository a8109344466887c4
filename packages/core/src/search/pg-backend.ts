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

/** A document to index with its terms and the hash of what would be embedded. */
interface PgIndexEntry {
  doc: SearchDocInput;
  terms: IndexTerms;
  embedHash: string;
}

/**
 * Writes documents into `search_docs`, `search_bodies` and `search_postings` (PostgreSQL) in one statement,
 * replacing earlier versions with the same (project, kind, ref): postings of terms a document no longer has are
 * deleted, the others inserted or updated. Triggers keep the term and table statistics (migration 011), once
 * per statement, so a batch also updates each term's count once instead of once per document. A ref given twice
 * keeps its last entry. Runs on whatever `db` is (a transaction, if the caller is in one).
 *
 * @example
 * await pgUpsert(trx, [{ doc, terms: indexTerms(doc.title, doc.body, DEFAULT_TUNING), embedHash }]);
 */
export async function pgUpsert(db: Kysely<DB>, entries: readonly PgIndexEntry[]): Promise<void> {
  const last = new Map<string, PgIndexEntry>();
  for (const e of entries) last.set(JSON.stringify([e.doc.projectId, e.doc.kind, e.doc.refId]), e);
  const docs = [...last.values()];
  if (docs.length === 0) return;
  const col = <T>(f: (e: PgIndexEntry) => T) => docs.map(f);
  const post = { n: [] as number[], term: [] as string[], title: [] as number[], body: [] as number[] };
  docs.forEach((e, n) => {
    const p = postingsOf(e.terms);
    for (let i = 0; i < p.term.length; i++) {
      post.n.push(n);
      post.term.push(p.term[i]!);
      post.title.push(p.title[i]!);
      post.body.push(p.body[i]!);
    }
  });
  // The delete and the insert touch disjoint postings (terms gone / terms present), so running them in one
  // statement's snapshot is safe.
  await sql`
    with input as (
      select * from unnest(cast(${col((e) => e.doc.projectId)} as text[]), cast(${col((e) => e.doc.kind)} as text[]),
        cast(${col((e) => e.doc.refId)} as text[]), cast(${col((e) => e.doc.path)} as text[]), cast(${col((e) => e.doc.title)} as text[]),
        cast(${col((e) => e.doc.visibility)} as text[]), cast(${col((e) => e.doc.updatedAt)} as text[]),
        cast(${col((e) => e.terms.title.length + e.terms.body.length)} as int4[]), cast(${col((e) => e.doc.body)} as text[]),
        cast(${col((e) => e.embedHash)} as text[]))
        with ordinality as i(project_id, kind, ref_id, path, title, visibility, updated_at, ntokens, body, hash, n)),
    d as (
      insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
      select project_id, kind, ref_id, path, title, visibility, updated_at, ntokens from input order by n
      on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
        visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens
      returning id, project_id, kind, ref_id),
    di as (select d.id, i.* from d join input i using (project_id, kind, ref_id)),
    b as (
      insert into search_bodies (doc_id, body) select id, body from di
      on conflict (doc_id) do update set body = excluded.body),
    stale as (
      delete from search_vectors x using di where x.doc_id = di.id and x.text_hash <> di.hash),
    pin as (
      select di.id, di.project_id, di.kind, di.visibility, di.ntokens, t.term, t.a, t.b
      from unnest(cast(${post.n} as int8[]), cast(${post.term} as text[]), cast(${post.title} as int4[]), cast(${post.body} as int4[])) as t(n, term, a, b)
      join di on di.n = t.n + 1),
    gone as (
      delete from search_postings x using di
      where x.doc_id = di.id and not exists (select 1 from pin where pin.id = x.doc_id and pin.term = x.term))
    insert into search_postings (project_id, term, doc_id, tf_title, tf_body, ntokens, kind, visibility)
    select project_id, term, id, a, b, ntokens, kind, visibility from pin
    order by term collate "C", id
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
