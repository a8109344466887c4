/**
 * One ranking over several kinds of documents (wiki pages, memory files, files, document chunks): the one
 * search (B1). BM25 scores of different kinds are not comparable side by side — a 5-token log file that says
 * "refund" three times outscores a wiki page titled "Refund policy" whose body is 300 words — so each kind is
 * ranked on its own (a lane), and its candidates are re-scored in the application, the same arithmetic on both
 * back ends:
 *
 * 1. a length prior: BM25 × n / (n + LENGTH_PRIOR_TOKENS), n the document's tokens, so that a document of a
 *    few words full of the query word does not beat one that is about it;
 * 2. per-kind normalisation: half of the score is its share of the best of its kind, half its share of the
 *    best of all kinds, so every kind's best hit competes, while a kind whose best is weak stays below;
 * 3. field weights: the query's words in the title (page title, file or memory file name) count FIELD_SHARE
 *    of the score, in the path (folders, page path) half as much;
 * 4. documents that have every query word first (as in `rankDocs`), then those with some.
 *
 * Each lane's candidates are the best `max(POOL, offset + limit)` by BM25 and as many by BM25 of the title
 * alone, so a file named with the query is a candidate even below hundreds of small files that repeat it.
 */
import { sql } from 'kysely';
import { pgRank } from './pg-backend.js';
import { sqliteRank } from './sqlite-backend.js';
import { queryTerms } from './terms.js';
import { tokenize } from './tokenize.js';
import { DEFAULT_TUNING, type SearchTuning } from './tuning.js';
import type { RankRequest, RankedRow, SearchHit } from './types.js';
import { fuseRanks, vectorRank } from './vector-rank.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, vectorEngine, withSnippets, type QueryVector, type SearchIndex, type SearchMode } from './index.js';

/** One kind of document and who may see it: ranked on its own, then merged. */
export interface SearchLane {
  kind: string;
  /** Allowed visibility values; an empty list finds nothing in this lane. */
  visibility: string[];
  /** Only documents at or below this path (as `SearchQuery.pathPrefix`). */
  pathPrefix?: string;
}

interface LanesQuery {
  projectId: string;
  query: string;
  lanes: SearchLane[];
  limit?: number;
  offset?: number;
  mode?: SearchMode;
  queryVector?: QueryVector;
  /** False: hits without snippets — the bodies are not read (counts per kind need only which documents match). */
  snippets?: boolean;
}

/** Candidates taken from each lane at least, so a re-scored hit from deep in a lane can reach the first page. */
const POOL = 100;
/** The document length (tokens, title and body) at which the length prior is one half. */
const LENGTH_PRIOR_TOKENS = 20;
/** Share of a hit's score that is its share of the best of its own kind (the rest: of the best of all kinds). */
const KIND_SHARE = 0.5;
/** Share of a hit's score given by the query's words in its title and path. */
const FIELD_SHARE = 0.4;
/** A word found only in the path counts this much of one in the title. */
const PATH_WEIGHT = 0.5;
/** Deepest page the index serves (as `searchDocs`). */
const MAX_DEPTH = 1_000 + MAX_SEARCH_LIMIT;

interface Candidate {
  row: RankedRow;
  lane: number;
  /** Has every query term. */
  all: boolean;
  /** BM25 of the body ranking; for a hit found by its title alone, the lowest of its lane's body candidates. */
  raw: number;
}

/** AND first, then OR to fill `depth` (as `rankDocs`), each row marked with whether it has every term. */
async function rankLane(index: SearchIndex, base: Omit<RankRequest, 'op' | 'limit' | 'offset'>, depth: number, tuning: SearchTuning, orOnly: boolean) {
  const rank = (r: RankRequest) => (index.dialect === 'sqlite' ? sqliteRank(index.kysely, r, tuning) : pgRank(index.kysely, r, tuning));
  if (orOnly || base.terms.length === 1) {
    const rows = await rank({ ...base, op: 'OR', limit: depth, offset: 0 });
    return rows.map((row) => ({ row, all: base.terms.length === 1 }));
  }
  const all = await rank({ ...base, op: 'AND', limit: depth, offset: 0 });
  const some = all.length < depth ? await rank({ ...base, op: 'OR', limit: depth - all.length, offset: 0, exclude: all.map((r) => r.id) }) : [];
  return [...all.map((row) => ({ row, all: true })), ...some.map((row) => ({ row, all: false }))];
}

/** The terms of a title or path as the index tokenises them. */
const termsOf = (text: string, tuning: SearchTuning) => new Set(tokenize(text, tuning).map((t) => t.term));

/**
 * How much of the query a hit's title and path hold, 0…1: each query term found in the title counts 1, found
 * only in the path PATH_WEIGHT, divided by the number of query terms.
 *
 * @example
 * fieldMatch(['refund'], 'Refund policy', 'handbook/refunds', DEFAULT_TUNING) // 1
 */
function fieldMatch(terms: readonly string[], title: string, path: string, tuning: SearchTuning): number {
  if (terms.length === 0) return 0;
  const inTitle = termsOf(title, tuning);
  const inPath = termsOf(path.replaceAll('/', ' '), tuning);
  let sum = 0;
  for (const t of terms) sum += inTitle.has(t) ? 1 : inPath.has(t) ? PATH_WEIGHT : 0;
  return sum / terms.length;
}

/**
 * The blended lexical ranking of several lanes (see the module comment), best first, `offset`…`offset + limit`.
 * Scores are in [0, 2): 1 for having every query word, plus the re-scored relevance.
 *
 * @example
 * await rankLanes(platform.db, { projectId, query: 'refund', lanes: [{ kind: 'wiki', visibility: ['project'] }, { kind: 'file', visibility: ['files'] }] })
 */
export async function rankLanes(index: SearchIndex, q: LanesQuery): Promise<RankedRow[]> {
  const tuning = index.tuning ?? DEFAULT_TUNING;
  const terms = queryTerms(q.query, tuning);
  if (terms.length === 0) return [];
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.max(0, Math.min(MAX_DEPTH - limit, Math.floor(q.offset ?? 0)));
  const depth = Math.max(POOL, offset + limit);
  const titleTuning: SearchTuning = { ...tuning, titleWeight: 1, bodyWeight: 0 };
  const candidates = new Map<number, Candidate>();
  for (const [lane, l] of q.lanes.entries()) {
    if (l.visibility.length === 0) continue;
    const base = { projectId: q.projectId, terms, kinds: [l.kind], visibility: l.visibility, pathPrefix: l.pathPrefix };
    const body = await rankLane(index, base, depth, tuning, false);
    for (const b of body) candidates.set(b.row.id, { row: b.row, lane, all: b.all, raw: b.row.score });
    if (body.length < depth) continue; // every match of the lane is a candidate already
    const floor = Math.min(...body.map((b) => b.row.score));
    // With the body weighted 0, documents without a query word in the title score 0 and come last.
    for (const t of await rankLane(index, base, depth, titleTuning, true)) {
      if (t.row.score <= 0 || candidates.has(t.row.id)) continue;
      candidates.set(t.row.id, { row: { ...t.row, score: floor }, lane, all: false, raw: floor });
    }
  }
  if (candidates.size === 0) return [];
  const lengths = new Map<number, number>();
  const ids = [...candidates.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const { rows } = await sql<{ id: number; ntokens: number }>`
      select id, ntokens from search_docs where id in (${sql.join(ids.slice(i, i + 500))})`.execute(index.kysely);
    for (const r of rows) lengths.set(Number(r.id), Number(r.ntokens));
  }
  const prior = (id: number) => {
    const n = lengths.get(id) ?? 0;
    return n / (n + LENGTH_PRIOR_TOKENS);
  };
  const laneTop = new Map<number, number>();
  let top = 0;
  const scored = [...candidates.values()].map((c) => {
    const field = fieldMatch(terms, c.row.title, c.row.path, tuning);
    const s = c.raw * prior(c.row.id);
    laneTop.set(c.lane, Math.max(laneTop.get(c.lane) ?? 0, s));
    top = Math.max(top, s);
    // A title that holds every query word proves the document has them all.
    return { c, s, field, all: c.all || field === 1 };
  });
  const ranked = scored.map(({ c, s, field, all }) => {
    const best = laneTop.get(c.lane)!;
    const rel = best > 0 ? KIND_SHARE * (s / best) + (1 - KIND_SHARE) * (s / top) : 0;
    return { ...c.row, score: (all ? 1 : 0) + (1 - FIELD_SHARE) * rel + FIELD_SHARE * field };
  });
  ranked.sort((a, b) => b.score - a.score || cmp(a.path, b.path) || cmp(a.refId, b.refId));
  return ranked.slice(offset, offset + limit);
}

/** Byte order, as the back ends' tie-break (`collate "C"`, SQLite's binary). */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one search over several lanes, best first, with snippets: `lexical` ranks by `rankLanes`; `vector` by
 * cosine similarity, which one model makes comparable across kinds, so the lanes' nearest are merged by it;
 * `hybrid` fuses the best 100 of each by reciprocal rank fusion, as `searchDocs` does.
 *
 * @example
 * const hits = await searchLanes(platform.db, { projectId, query: 'refund', lanes: [{ kind: 'wiki', visibility: ['project'] }] });
 */
export async function searchLanes(index: SearchIndex, q: LanesQuery): Promise<SearchHit[]> {
  const mode = q.mode ?? 'lexical';
  const lanes = q.lanes.filter((l) => l.visibility.length > 0);
  if (lanes.length === 0) return [];
  const finish = (rows: Array<RankedRow & { matchedBy: Array<'lexical' | 'vector'> }>) =>
    q.snippets === false ? Promise.resolve(rows.map((r) => withoutSnippet(r))) : withSnippets(index, q.query, rows);
  if (mode === 'lexical') return finish((await rankLanes(index, { ...q, lanes })).map((r) => ({ ...r, matchedBy: ['lexical'] })));
  if (!q.queryVector) throw new Error(`${mode} search needs the query's vector`);
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.max(0, Math.min(MAX_DEPTH - limit, Math.floor(q.offset ?? 0)));
  const nearest = async (want: number) => {
    const engine = await vectorEngine(index);
    const rows: RankedRow[] = [];
    for (const l of lanes) {
      const { vector, model } = q.queryVector!;
      rows.push(
        ...(await vectorRank(
          index.kysely,
          { projectId: q.projectId, kinds: [l.kind], visibility: l.visibility, pathPrefix: l.pathPrefix, limit: want },
          vector,
          model,
          engine,
        )),
      );
    }
    return rows.sort((a, b) => b.score - a.score || cmp(a.path, b.path) || cmp(a.refId, b.refId)).slice(0, want);
  };
  if (mode === 'vector') {
    const rows = (await nearest(offset + limit)).slice(offset);
    return finish(rows.map((r) => ({ ...r, matchedBy: ['vector'] })));
  }
  if (offset >= MAX_SEARCH_LIMIT) return [];
  const lexical = await rankLanes(index, { ...q, lanes, limit: MAX_SEARCH_LIMIT, offset: 0 });
  return finish(fuseRanks({ lexical, vector: await nearest(MAX_SEARCH_LIMIT) }).slice(offset, offset + limit));
}

/** A hit as `withSnippets` makes it, with an empty snippet. */
function withoutSnippet(r: RankedRow & { matchedBy: Array<'lexical' | 'vector'> }): SearchHit {
  return {
    kind: r.kind,
    refId: r.refId,
    path: r.path,
    title: r.title,
    snippet: '',
    score: r.score,
    highlights: [],
    updatedAt: r.updatedAt,
    matchedBy: r.matchedBy,
  };
}
