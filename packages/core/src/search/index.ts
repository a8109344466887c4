/**
 * One lexical search for wiki pages, memory files, file contents and names, and document chunks.
 *
 * Text is tokenised in the application (Intl.Segmenter, case folding, English/Russian stemming, CJK bigrams;
 * see tokenize.ts) and the token streams are stored in SQLite FTS5 or PostgreSQL postings (packed per term in
 * blocks, migration 040), ranked by the same BM25 formula on both. Every write runs on the Kysely instance it
 * is given, so callers index inside the transaction that changes the document.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '@stoa/db';
import { pgRank, pgRemove, pgUpsert } from './pg-backend.js';
import { headingBefore, makeSnippet } from './snippet.js';
import { sqliteRank, sqliteUpsert } from './sqlite-backend.js';
import { indexTerms, queryTerms } from './terms.js';
import { DEFAULT_TUNING, type SearchTuning } from './tuning.js';
import type { RankRequest, RankedRow, SearchDocInput, SearchHit, SearchQuery } from './types.js';
import { fuseRanks, vectorRank, type VectorEngine } from './vector-rank.js';
import { embedInput } from '../embeddings/embed-text.js';

export type { SearchDocInput, SearchHit, SearchQuery } from './types.js';

/** The back end a Kysely instance talks to (`StoaDb.dialect`). */
type SearchDialect = 'sqlite' | 'postgres';

/**
 * Where the index lives: a database handle (or the transaction that changes the document) and its back end,
 * with optional ranking settings. `StoaDb` fits as it is: `searchDocs(platform.db, …)`.
 */
export interface SearchIndex {
  kysely: Kysely<DB>;
  dialect: SearchDialect;
  tuning?: SearchTuning;
  /** SQL computes vector distances (sqlite-vec, pgvector); `StoaDb` has it. Absent or false: vectors are scanned in-process. */
  vectorFunctions?: () => Promise<boolean>;
}

/** The documents of one kind in one project that an index operation touches. */
interface DocScope {
  projectId: string;
  kind: string;
}

/** Page size of `searchDocs` when none is given. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Largest page size (larger limits are clamped). */
export const MAX_SEARCH_LIMIT = 100;
/** Deepest offset served: paging further is no use to a person and only costs the server. */
const MAX_SEARCH_OFFSET = 1_000;
/** Length of `SearchHit.snippet` before the "…" marks. */
const SNIPPET_CHARS = 200;

/**
 * Indexes a document, replacing the earlier entry with the same (projectId, kind, refId).
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   // … save the wiki page …
 *   await indexDoc({ kysely: trx, dialect: 'sqlite' }, { projectId, kind: 'wiki', refId: page.id, path: 'handbook/refunds',
 *     title: 'Refunds', body: markdown, visibility: 'project', updatedAt: nowIso() });
 * });
 */
export async function indexDoc(index: SearchIndex, doc: SearchDocInput): Promise<void> {
  await indexDocs(index, [doc]);
}

/**
 * Indexes many documents as `indexDoc` does each: on PostgreSQL in one statement, which updates each term's
 * document count once for the batch (a reindex or an import). A refId given twice keeps its last document.
 *
 * @example
 * await indexDocs({ kysely: trx, dialect: 'postgres' }, pages.map((p) => ({ projectId, kind: 'wiki', refId: p.id, … })));
 */
export async function indexDocs(index: SearchIndex, docs: readonly SearchDocInput[]): Promise<void> {
  const entries = docs.map((doc) => ({
    doc,
    terms: indexTerms(doc.title, doc.body, index.tuning ?? DEFAULT_TUNING),
    embedHash: embedInput(doc.title, doc.body).hash,
  }));
  if (index.dialect === 'postgres') return pgUpsert(index.kysely, entries, index.tuning ?? DEFAULT_TUNING);
  for (const e of entries) await sqliteUpsert(index.kysely, e.doc, e.terms, e.embedHash);
}

/**
 * Removes a document from the index; removing one that is not there is not an error.
 *
 * @example
 * await removeDoc({ kysely: trx, dialect: 'postgres' }, { projectId, kind: 'wiki', refId: page.id });
 */
export async function removeDoc(index: SearchIndex, { projectId, kind, refId }: DocScope & { refId: string }): Promise<void> {
  await removeWhere(index, sql`project_id = ${projectId} and kind = ${kind} and ref_id = ${refId}`);
}

/** Removes the documents `where` selects, with their postings; returns how many went. */
async function removeWhere(index: SearchIndex, where: RawBuilder<unknown>): Promise<number> {
  if (index.dialect === 'postgres') return pgRemove(index.kysely, where, index.tuning ?? DEFAULT_TUNING);
  // On SQLite the search_docs_fts_delete trigger removes the FTS row in the same statement.
  const result = await sql`delete from search_docs where ${where}`.execute(index.kysely);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Removes every document of a kind at `path` (all chunks of one file share its path) and, with `nested`,
 * below `path/` (a deleted folder). Returns the count.
 *
 * @example
 * await removeDocsByPath({ kysely: trx, dialect: 'sqlite' }, { projectId, kind: 'chunk', path: 'reports/q3.pdf' });
 */
export async function removeDocsByPath(
  index: SearchIndex,
  { projectId, kind, path, nested: withNested }: DocScope & { path: string; nested?: boolean },
): Promise<number> {
  const below = `${path}/`;
  const nested = withNested ? sql`or substr(path, 1, ${Array.from(below).length}) = ${below}` : sql``;
  return removeWhere(index, sql`project_id = ${projectId} and kind = ${kind} and (path = ${path} ${nested})`);
}

/**
 * Changes the stored path of indexed documents after a move, without re-tokenising them: the document at
 * `from` and, with `nested`, every document below `from/` (wiki moves carry nested pages). Returns the count.
 *
 * @example
 * await renameDocPath({ kysely: trx, dialect: 'sqlite' }, { projectId, kind: 'wiki', from: 'handbook', to: 'guide', nested: true });
 */
export async function renameDocPath(
  index: SearchIndex,
  { projectId, kind, from, to, nested: withNested }: DocScope & { from: string; to: string; nested?: boolean },
): Promise<number> {
  const below = `${from}/`;
  const n = Array.from(below).length;
  const nested = withNested ? sql`or substr(path, 1, ${n}) = ${below}` : sql``;
  const result = await sql`
    update search_docs set path = case when path = ${from} then ${to} else ${`${to}/`} || substr(path, ${n + 1}) end
    where project_id = ${projectId} and kind = ${kind} and (path = ${from} ${nested})`.execute(index.kysely);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Changes who may see an indexed document (e.g. a wiki page moved to a channel) without re-tokenising it.
 *
 * @example
 * await setDocVisibility({ kysely: trx, dialect: 'sqlite' }, { projectId, kind: 'wiki', refId: page.id, visibility: 'channel:conv_1' });
 */
export async function setDocVisibility(
  index: SearchIndex,
  { projectId, kind, refId, visibility }: DocScope & { refId: string; visibility: string },
): Promise<void> {
  await sql`update search_docs set visibility = ${visibility}
    where project_id = ${projectId} and kind = ${kind} and ref_id = ${refId}`.execute(index.kysely);
}

/**
 * The ranking behind `searchDocs`, without snippets: for fusing with vector results (reciprocal rank fusion)
 * or anything else that needs only the order. Rows carry the search_docs id, kind, refId, path, title, score.
 *
 * @example
 * const ranked = await rankDocs(platform.db, { projectId, query: 'refund', visibility: ['project'], limit: 50 });
 */
export async function rankDocs(index: SearchIndex, q: SearchQuery, opts: { withBody?: boolean } = {}): Promise<RankedRow[]> {
  const { kysely: db, dialect, tuning = DEFAULT_TUNING } = index;
  const terms = queryTerms(q.query, tuning);
  if (terms.length === 0 || q.visibility.length === 0 || q.kinds?.length === 0) return [];
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.max(0, Math.min(MAX_SEARCH_OFFSET, Math.floor(q.offset ?? 0)));
  const rank = (r: RankRequest) => (dialect === 'sqlite' ? sqliteRank(db, r, tuning) : pgRank(db, r, tuning));
  const base = { projectId: q.projectId, terms, kinds: q.kinds, visibility: q.visibility, pathPrefix: q.pathPrefix, withBody: opts.withBody };
  if (tuning.mode === 'or' || terms.length === 1) return rank({ ...base, op: 'OR', limit, offset });
  // AND first; OR only when AND cannot fill the page. Cheaper than ranking every OR match with a "has every
  // term" flag: a query with a common word no longer walks that word's whole posting list when AND suffices.
  const want = offset + limit;
  const all = await rank({ ...base, op: 'AND', limit: want, offset: 0 });
  const rows = all.slice(offset);
  if (all.length < want) {
    rows.push(
      ...(await rank({
        ...base,
        op: 'OR',
        limit: want - Math.max(offset, all.length),
        offset: Math.max(0, offset - all.length),
        exclude: all.map((r) => r.id),
      })),
    );
  }
  return rows;
}

/** How a search ranks: words (BM25), meaning (vectors), or both fused by reciprocal rank fusion. */
export type SearchMode = 'lexical' | 'vector' | 'hybrid';
/** The query's embedding and the model that made it (only vectors of that model are compared). */
export interface QueryVector {
  vector: Float32Array;
  model: string;
}
/** Hybrid search fuses the best this many of each ranking; its pages reach this deep. */
const HYBRID_DEPTH = MAX_SEARCH_LIMIT;

/**
 * Ranked search, best first, with a snippet per hit. The query is free text (never query syntax).
 *
 * `lexical` (the default): documents that contain every query term come before those containing only some
 * (AND, then OR to fill the page); within each group BM25 with the title weighted above the body decides.
 * `vector`: nearest by cosine similarity to `queryVector`. `hybrid`: both rankings, `HYBRID_DEPTH` deep each,
 * fused by reciprocal rank fusion. Visibility, kinds and the path prefix are filtered in SQL before the limit
 * in every mode, so a hidden document never appears nor takes a result's place.
 *
 * @example
 * const hits = await searchDocs(platform.db, { projectId, query: 'refund policy', visibility: ['project', 'channel:conv_1'], limit: 10 });
 * hits[0] // { kind: 'wiki', refId: 'pg_1', path: 'handbook/refunds', title: 'Refunds', snippet: '…', score: 7.3, highlights: [[0, 7]], matchedBy: ['lexical'], … }
 */
export async function searchDocs(index: SearchIndex, q: SearchQuery & { mode?: SearchMode; queryVector?: QueryVector }): Promise<SearchHit[]> {
  const mode = q.mode ?? 'lexical';
  if (mode === 'lexical') return withSnippets(index, q.query, (await rankDocs(index, q, { withBody: index.dialect === 'postgres' })).map(by('lexical')));
  if (!q.queryVector) throw new Error(`${mode} search needs the query's vector`);
  const { vector, model } = q.queryVector;
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.max(0, Math.min(MAX_SEARCH_OFFSET, Math.floor(q.offset ?? 0)));
  if (mode === 'vector')
    return withSnippets(index, q.query, (await vectorRank(index.kysely, { ...q, limit, offset }, vector, model, await vectorEngine(index))).map(by('vector')));
  if (offset >= HYBRID_DEPTH) return [];
  const deep = { ...q, limit: HYBRID_DEPTH, offset: 0 };
  const lexical = await rankDocs(index, deep, { withBody: index.dialect === 'postgres' });
  const nearest = await vectorRank(index.kysely, deep, vector, model, await vectorEngine(index));
  return withSnippets(index, q.query, fuseRanks({ lexical, vector: nearest }).slice(offset, offset + limit));
}

/** sqlite-vec or pgvector where the database has it, else the scan in JavaScript. */
export async function vectorEngine(index: SearchIndex): Promise<VectorEngine> {
  if (!(await index.vectorFunctions?.())) return 'scan';
  return index.dialect === 'postgres' ? 'pgvector' : 'sqlite-vec';
}

const by =
  (source: 'lexical' | 'vector') =>
  (r: RankedRow): RankedRow & { matchedBy: Array<'lexical' | 'vector'> } => ({ ...r, matchedBy: [source] });

/**
 * Cuts a snippet around the query's words for each ranked row. Bodies are read for the page only, not carried
 * through the ranking sort: PostgreSQL joins them into the ranking statement (one round trip less); SQLite
 * reads them in-process after it.
 */
export async function withSnippets(
  index: SearchIndex,
  query: string,
  rows: Array<RankedRow & { matchedBy: Array<'lexical' | 'vector'> }>,
): Promise<SearchHit[]> {
  if (rows.length === 0) return [];
  const { kysely: db, tuning = DEFAULT_TUNING } = index;
  const terms = queryTerms(query, tuning);
  const byId = new Map(rows.filter((r) => r.body !== undefined).map((r) => [r.id, r.body!]));
  if (byId.size < rows.length) {
    const bodies = await sql<{ id: number; body: string }>`
      select doc_id as id, body from search_bodies where doc_id in (${sql.join(rows.filter((r) => !byId.has(r.id)).map((r) => r.id))})`.execute(db);
    for (const b of bodies.rows) byId.set(Number(b.id), b.body);
  }
  return rows.map((r) => {
    const body = byId.get(r.id) ?? '';
    const { snippet, highlights, at } = makeSnippet(body, terms, SNIPPET_CHARS, tuning);
    const heading = at === undefined ? undefined : headingBefore(body, at);
    return {
      kind: r.kind,
      refId: r.refId,
      path: r.path,
      title: r.title,
      snippet,
      score: r.score,
      highlights,
      updatedAt: r.updatedAt,
      matchedBy: r.matchedBy,
      ...(heading ? { heading } : {}),
    };
  });
}
