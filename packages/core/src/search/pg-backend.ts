import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '@stoa/db';
import { indexTerms, type IndexTerms } from './terms.js';
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

/** Runs `work` in the caller's transaction, or in one of its own: the rows it locks stay locked until its writes. */
function inTransaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Stored documents, locked, with what they were indexed from. */
interface StoredDoc {
  id: number;
  project_id: string;
  title: string;
  body: string | null;
}

/**
 * What documents locked by the caller were indexed from. Read in a statement of its own after the lock: a
 * statement that waited for a row lock sees the locked row as committed, but the rows it joins (the body) as they
 * were when it began, so a body read with the lock could be the version a concurrent writer just replaced.
 */
async function storedDocs(trx: Kysely<DB>, ids: readonly number[]): Promise<StoredDoc[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<StoredDoc>`
    select s.id, s.project_id, s.title, b.body from search_docs s left join search_bodies b on b.doc_id = s.id
    where s.id = any(cast(${ids} as int8[]))`.execute(trx);
  return rows;
}

/**
 * The postings of stored documents, as (project, document, term) columns for `stoa_search_remove`: each
 * document's distinct terms derived again from the title and body the index stores, by the tokenizer that indexed
 * them (migration 050; decision 0037). A change of the tokenizer therefore comes with a migration that rebuilds the
 * PostgreSQL index, as it must anyway for queries to meet the stored terms.
 */
function postingsToRemove(docs: readonly StoredDoc[], tuning: SearchTuning): { project: string[]; doc: number[]; term: string[] } {
  const out = { project: [] as string[], doc: [] as number[], term: [] as string[] };
  for (const d of docs) {
    for (const term of postingsOf(indexTerms(d.title, d.body ?? '', tuning)).term) {
      out.project.push(d.project_id);
      out.doc.push(Number(d.id));
      out.term.push(term);
    }
  }
  return out;
}

/**
 * Writes documents into `search_docs`, `search_bodies` and the postings of `search_blocks` and `search_singles`
 * (PostgreSQL), replacing earlier versions with the same (project, kind, ref): the documents' rows are locked and
 * read first (the newest committed ones), then one statement writes them, removes the old versions' postings and
 * adds the new ones by `stoa_search_replace` (migrations 040, 049, 052). A ref given twice keeps its last entry.
 * Runs in the caller's transaction, or in one of its own, so the rows stay locked from the read to the write.
 *
 * @example
 * await pgUpsert(trx, [{ doc, terms: indexTerms(doc.title, doc.body, DEFAULT_TUNING), embedHash }], DEFAULT_TUNING);
 */
export async function pgUpsert(db: Kysely<DB>, entries: readonly PgIndexEntry[], tuning: SearchTuning): Promise<void> {
  const last = new Map<string, PgIndexEntry>();
  for (const e of entries) last.set(JSON.stringify([e.doc.projectId, e.doc.kind, e.doc.refId]), e);
  const docs = [...last.values()];
  if (docs.length === 0) return;
  const col = <T>(f: (e: PgIndexEntry) => T) => docs.map(f);
  const projects = col((e) => e.doc.projectId);
  const kinds = col((e) => e.doc.kind);
  const refs = col((e) => e.doc.refId);
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
  await inTransaction(db, async (trx) => {
    // Locked, so a concurrent re-index of the same document is waited for and its postings (not older ones) removed.
    const { rows: locked } = await sql<{ id: number }>`
      select s.id from search_docs s
      join unnest(cast(${projects} as text[]), cast(${kinds} as text[]), cast(${refs} as text[])) as i(project_id, kind, ref_id)
        using (project_id, kind, ref_id)
      order by s.id for update of s`.execute(trx);
    const old = await storedDocs(
      trx,
      locked.map((r) => Number(r.id)),
    );
    const rm = postingsToRemove(old, tuning);
    await sql`
      with input as (
        select * from unnest(cast(${projects} as text[]), cast(${kinds} as text[]), cast(${refs} as text[]), cast(${col((e) => e.doc.path)} as text[]), cast(${col((e) => e.doc.title)} as text[]),
          cast(${col((e) => e.doc.visibility)} as text[]), cast(${col((e) => e.doc.updatedAt)} as text[]),
          cast(${col((e) => e.terms.title.length + e.terms.body.length)} as int4[]), cast(${col((e) => e.doc.body)} as text[]),
          cast(${col((e) => e.embedHash)} as text[]))
          with ordinality as i(project_id, kind, ref_id, path, title, visibility, updated_at, ntokens, body, hash, n)),
      post as (
        select t.n + 1 as n, t.term, t.a, t.b
        from unnest(cast(${post.n} as int8[]), cast(${post.term} as text[]), cast(${post.title} as int4[]), cast(${post.body} as int4[])) as t(n, term, a, b)),
      d as (
        insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
        select i.project_id, i.kind, i.ref_id, i.path, i.title, i.visibility, i.updated_at, i.ntokens from input i order by i.n
        on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
          visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens
        returning id, project_id, kind, ref_id),
      di as (select d.id, i.* from d join input i using (project_id, kind, ref_id)),
      b as (
        insert into search_bodies (doc_id, body) select id, body from di
        on conflict (doc_id) do update set body = excluded.body),
      stale as (
        delete from search_vectors x using di where x.doc_id = di.id and x.text_hash <> di.hash),
      add as (select di.project_id, di.id, p.term, p.a, p.b, di.ntokens from post p join di on di.n = p.n)
      select stoa_search_replace(cast(${rm.project} as text[]), cast(${rm.doc} as int8[]), cast(${rm.term} as text[]),
        coalesce((select array_agg(project_id) from add), '{}'), coalesce((select array_agg(id) from add), '{}'),
        coalesce((select array_agg(term) from add), '{}'), coalesce((select array_agg(a) from add), '{}'),
        coalesce((select array_agg(b) from add), '{}'), coalesce((select array_agg(ntokens) from add), '{}'))`.execute(trx);
  });
}

/** Documents whose stored text is read at once when removing many (a folder of thousands): memory stays bounded. */
const REMOVE_CHUNK = 32;

/**
 * Removes the documents `where` selects (a condition on `search_docs`) with their postings: the rows are locked,
 * then, a few at a time, their stored text read, their postings removed by `stoa_search_remove` and the rows
 * deleted (their bodies and vectors follow by cascade). Returns how many went.
 *
 * @example
 * await pgRemove(trx, sql`project_id = ${projectId} and kind = 'wiki' and ref_id = ${refId}`, DEFAULT_TUNING);
 */
export async function pgRemove(db: Kysely<DB>, where: RawBuilder<unknown>, tuning: SearchTuning): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { rows: locked } = await sql<{ id: number }>`select id from search_docs where ${where} order by id for update`.execute(trx);
    const ids = locked.map((r) => Number(r.id));
    for (let i = 0; i < ids.length; i += REMOVE_CHUNK) {
      const chunk = ids.slice(i, i + REMOVE_CHUNK);
      const rm = postingsToRemove(await storedDocs(trx, chunk), tuning);
      if (rm.doc.length > 0)
        await sql`select stoa_search_remove(cast(${rm.project} as text[]), cast(${rm.doc} as int8[]), cast(${rm.term} as text[]))`.execute(trx);
      await sql`delete from search_docs where id = any(cast(${chunk} as int8[]))`.execute(trx);
    }
    return ids.length;
  });
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
 * One call of `stoa_search_rank` (migration 040, now 053, over the blocks and single postings of 052; its plans
 * are kept per connection): for AND it first keeps only the blocks whose documents' range holds one of the rarest
 * term's documents, then it bounds every block of the query's terms, takes a threshold from the best-bounded
 * blocks, scores only the blocks that can reach it, and checks visibility, kinds and the folder in `search_docs`
 * for the candidates in score order until the page and the rows tied with its last are found, so the path / ref
 * tie-break is the same as SQLite's. Nothing a filter rejects takes a place, and the hits and scores are those of
 * scoring every posting.
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
