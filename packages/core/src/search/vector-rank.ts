import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '@stoa/db';
import { dotWithStored, encodeVector, pgvectorLiteral } from '../embeddings/vectors.js';
import { docFilters } from './doc-filters.js';
import type { RankedRow, SearchQuery } from './types.js';

/** Rows read per round trip of the scan: bounded memory at any index size. */
const SCAN_PAGE = 2000;

/** Where distances are computed: in SQL by sqlite-vec or pgvector, or in JavaScript over the stored bytes. */
export type VectorEngine = 'sqlite-vec' | 'pgvector' | 'scan';

/**
 * Nearest documents to a query vector by cosine similarity, best first: an exact scan over the stored vectors of
 * one model — inside the database with sqlite-vec or pgvector where `engine` says so, else in JavaScript — with
 * the same filters as lexical search applied in SQL (project, visibility, kinds, path prefix), so a document the
 * caller may not read is never even compared. Keeps only the best `offset + limit` rows. `score` is the cosine
 * similarity (−1…1). Exact on purpose: an approximate index (HNSW) filtered afterwards by project and visibility
 * can return fewer rows than asked, or miss the nearest one.
 *
 * @example
 * const rows = await vectorRank(platform.db.kysely, { projectId, visibility: ['project'], limit: 20 }, queryVector, 'nomic-embed-text', 'scan');
 */
export async function vectorRank(
  db: Kysely<DB>,
  q: Omit<SearchQuery, 'query'>,
  vector: Float32Array,
  model: string,
  engine: VectorEngine,
): Promise<RankedRow[]> {
  if (q.visibility.length === 0 || q.kinds?.length === 0) return [];
  const want = Math.max(1, Math.floor(q.limit ?? 20)) + Math.max(0, Math.floor(q.offset ?? 0));
  const filters = docFilters({ projectId: q.projectId, visibility: q.visibility, kinds: q.kinds, pathPrefix: q.pathPrefix });
  const nearest: NearestQuery = { db, projectId: q.projectId, filters, vector, model, want };
  const best =
    engine === 'sqlite-vec' ? await nearestInSqlite(nearest) : engine === 'pgvector' ? await nearestInPostgres(nearest) : await nearestByScan(nearest);
  const top = best.slice(Math.max(0, Math.floor(q.offset ?? 0)));
  if (top.length === 0) return [];
  const docs = await sql<{ id: number; kind: string; refId: string; path: string; title: string; updatedAt: string }>`
    select id, kind, ref_id as "refId", path, title, updated_at as "updatedAt" from search_docs
    where id in (${sql.join(top.map((t) => t.id))})`.execute(db);
  const byId = new Map(docs.rows.map((d) => [Number(d.id), d]));
  return top.flatMap((t) => {
    const d = byId.get(t.id);
    return d ? [{ id: t.id, kind: d.kind, refId: d.refId, path: d.path, title: d.title, updatedAt: d.updatedAt, score: t.score }] : [];
  });
}

/** The best `want` vectors of one project and model that pass `filters`, for a unit-length query vector. */
interface NearestQuery {
  db: Kysely<DB>;
  projectId: string;
  filters: RawBuilder<unknown>;
  vector: Float32Array;
  model: string;
  want: number;
  /** Scan only the vectors pgvector's column does not hold yet. */
  unfilledOnly?: boolean;
}

/** The scan in JavaScript, page by page in key order: bounded memory at any index size. */
async function nearestByScan({ db, projectId, filters, vector, model, want, unfilledOnly }: NearestQuery): Promise<Array<{ id: number; score: number }>> {
  const best: Array<{ id: number; score: number }> = [];
  const unfilled = unfilledOnly ? sql`and v.embedding is null` : sql``;
  let after = -1;
  for (;;) {
    const page = await sql<{ id: number; vector: Uint8Array }>`
      select v.doc_id as id, v.vector as vector from search_vectors v join search_docs d on d.id = v.doc_id
      where v.doc_id > ${after} and v.project_id = ${projectId} and v.model = ${model} and v.vector is not null
        and v.dims = ${vector.length} ${unfilled} and ${filters}
      order by v.doc_id limit ${SCAN_PAGE}`.execute(db);
    for (const r of page.rows) keepBest(best, { id: Number(r.id), score: dotWithStored(vector, r.vector) }, want);
    if (page.rows.length < SCAN_PAGE) break;
    after = Number(page.rows[page.rows.length - 1]!.id);
  }
  return best;
}

/**
 * The same scan inside SQLite with sqlite-vec's `vec_distance_cosine` (C over the stored bytes, no row crosses
 * into JavaScript but the best `want`). Stored vectors are unit length, so similarity = 1 − cosine distance.
 */
async function nearestInSqlite({ db, projectId, filters, vector, model, want }: NearestQuery): Promise<Array<{ id: number; score: number }>> {
  const { rows } = await sql<{ id: number; distance: number }>`
    select v.doc_id as id, vec_distance_cosine(v.vector, ${encodeVector(vector)}) as distance
    from search_vectors v join search_docs d on d.id = v.doc_id
    where v.project_id = ${projectId} and v.model = ${model} and v.vector is not null and v.dims = ${vector.length} and ${filters}
    order by distance, v.doc_id limit ${want}`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), score: 1 - Number(r.distance) }));
}

/**
 * The same scan inside PostgreSQL with pgvector's cosine distance `<=>` over the `embedding` column. Vectors
 * stored before pgvector was enabled have no column yet (the background embedder fills it): those few are
 * scanned from their bytes and the two lists merged, so none is missed meanwhile.
 */
async function nearestInPostgres(q: NearestQuery): Promise<Array<{ id: number; score: number }>> {
  const { db, projectId, filters, vector, model, want } = q;
  const { rows } = await sql<{ id: number; distance: number }>`
    select v.doc_id as id, v.embedding <=> cast(${pgvectorLiteral(vector)} as vector) as distance
    from search_vectors v join search_docs d on d.id = v.doc_id
    where v.project_id = ${projectId} and v.model = ${model} and v.embedding is not null and v.dims = ${vector.length} and ${filters}
    order by distance, v.doc_id limit ${want}`.execute(db);
  const best = rows.map((r) => ({ id: Number(r.id), score: 1 - Number(r.distance) }));
  for (const r of await nearestByScan({ ...q, unfilledOnly: true })) keepBest(best, r, want);
  return best;
}

/** Adds `item` to `best` (sorted, at most `want` long) if it is among the best. */
function keepBest(best: Array<{ id: number; score: number }>, item: { id: number; score: number }, want: number): void {
  if (best.length < want) insertSorted(best, item);
  else if (item.score > best[best.length - 1]!.score) {
    best.pop();
    insertSorted(best, item);
  }
}

/** Keeps `list` sorted by score, best first (ties: lower id first, so results are stable). */
function insertSorted(list: Array<{ id: number; score: number }>, item: { id: number; score: number }): void {
  let i = list.length;
  while (i > 0 && (list[i - 1]!.score < item.score || (list[i - 1]!.score === item.score && list[i - 1]!.id > item.id))) i--;
  list.splice(i, 0, item);
}

/** The constant of reciprocal rank fusion (Cormack et al., 2009): damps the weight of the very first ranks. */
const RRF_K = 60;

/**
 * Reciprocal rank fusion of ranked lists: each document scores Σ 1 / (RRF_K + rank) over the lists it is in
 * (ranks from 1), so agreement between lexical and vector ranking lifts a document above either list alone.
 * Returns rows best first with the fused score and which lists found each row.
 *
 * @example
 * fuseRanks({ lexical: lexRows, vector: vecRows }) // [{ ...row, score: 0.0325, matchedBy: ['lexical', 'vector'] }, …]
 */
export function fuseRanks<K extends string>(lists: Record<K, RankedRow[]>): Array<RankedRow & { matchedBy: K[] }> {
  const fused = new Map<number, RankedRow & { matchedBy: K[] }>();
  for (const [name, rows] of Object.entries(lists) as Array<[K, RankedRow[]]>) {
    rows.forEach((row, i) => {
      const add = 1 / (RRF_K + i + 1);
      const seen = fused.get(row.id);
      if (seen) {
        seen.score += add;
        seen.matchedBy.push(name);
        seen.body ??= row.body;
      } else fused.set(row.id, { ...row, score: add, matchedBy: [name] });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}
