import { SEARCH_OFFSET_MAX, StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { agentFolder, effectiveScopes } from '../policies/agent-scopes.js';
import { MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, type SearchHit, type SearchMode } from '../search/index.js';
import { searchLanes, type SearchLane } from '../search/blend.js';
import { searchPlan } from '../embeddings/search-mode.js';
import { wikiViewer } from '../wiki/visibility.js';
import { CHUNK_KIND } from '../understanding/assets.js';
import { FILE_KIND, FILE_VISIBILITY } from './file-index.js';
import { DOCUMENT_KIND, UNIFIED_KINDS, visibilityProviders } from './providers.js';
import './memory-provider.js';

/** Where in an understood document a hit was found: enough to cite it and to check the citation later (B4). */
export interface ChunkCitation {
  fileAssetId: string;
  chunkId: string;
  /** The file version the chunk was parsed from. */
  version: number;
  page: number | null;
  span: { start: number; end: number };
  hash: string;
}

/** One hit of the one search (B1), best first. */
export interface UnifiedHit {
  /** 'wiki' | 'memory' | 'file' | 'document' (a chunk of an understood document: PDF, DOCX…). */
  kind: string;
  /** Page path, memory file path, or file path from the storage root. */
  path: string;
  title: string;
  snippet: string;
  /** [start, end) offsets of the matched words in `snippet`. */
  highlights: Array<[number, number]>;
  score: number;
  updated: string;
  /** ID of the page, memory file or file (for a document: its file). */
  id: string;
  /** Which rankings found it: `lexical`, `vector`, or both (hybrid). */
  matchedBy: Array<'lexical' | 'vector'>;
  /** Documents only: the chunk the hit is in. */
  citation?: ChunkCitation;
  /** Files and documents: the file version that was searched (a document's: the version its chunk was parsed from). */
  version?: number;
  /** The markdown heading of the section the match is in (wiki pages, memory and markdown files that have one). */
  heading?: string;
  /** Wiki pages: the heading's anchor (`#…` of the page's URL, as the web UI names headings), to open the page there. */
  anchor?: string;
}

export interface UnifiedQuery {
  query: string;
  /** Restrict to some kinds (default: wiki, memory, file and document). */
  kinds?: string[];
  limit?: number;
  offset?: number;
  /** Ranking: hybrid where an embedding model is configured, lexical where not (see `searchPlan`). */
  mode?: SearchMode;
}

async function safely(f: () => Promise<string[]>): Promise<string[]> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof StoaError) return [];
    throw e;
  }
}

/**
 * How the caller may read files: the whole storage, one folder (an agent limited to its own folder), or none
 * (an agent with file access off).
 */
function fileReach(ctx: Ctx): { all: boolean; folder: string | null } {
  const a = ctx.actor;
  if (a.kind === 'agent') {
    if (!a.access.enabled || a.access.volume === 'none') return { all: false, folder: null };
    const read = effectiveScopes(a.agentId, a.access).read;
    return read === '' ? { all: true, folder: null } : { all: false, folder: agentFolder(a.agentId) };
  }
  return { all: can(a, 'file.read', { kind: 'file', path: '' }) === null, folder: null };
}

/** Index kind of a public kind: documents are indexed as their chunks. */
const indexKind = (k: string) => (k === DOCUMENT_KIND ? CHUNK_KIND : k);

/**
 * A heading's anchor as the web UI writes heading ids (apps/web/src/pages/wiki/markdown.tsx: lower case, spaces
 * as "-"), from the heading's markdown with emphasis, code marks and link targets taken off.
 *
 * @example
 * headingAnchor('Refunds **after** 30 days') // 'refunds-after-30-days'
 */
function headingAnchor(heading: string): string {
  // The rendered text: link targets and emphasis or code marks are not shown.
  let text = '';
  for (let i = 0; i < heading.length; i++) {
    const c = heading[i]!;
    if (c === ']' && heading[i + 1] === '(') {
      const close = heading.indexOf(')', i + 2);
      if (close >= 0) {
        i = close;
        continue;
      }
    }
    if ('[]*_`~'.includes(c) || (c === '!' && heading[i + 1] === '[')) continue;
    text += c;
  }
  return text
    .trim()
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/^\/+|(?<!\/)\/+$/g, '');
}

function toHit(h: SearchHit): UnifiedHit {
  const kind = h.kind === CHUNK_KIND ? DOCUMENT_KIND : h.kind;
  return {
    kind,
    path: h.path,
    title: h.title,
    snippet: h.snippet,
    highlights: h.highlights,
    score: h.score,
    updated: h.updatedAt,
    id: h.refId,
    matchedBy: h.matchedBy,
    ...(h.heading ? { heading: h.heading } : {}),
    ...(h.heading && kind === 'wiki' ? { anchor: headingAnchor(h.heading) } : {}),
  };
}

/**
 * Gives each file hit its file's version, and each document hit its file's ID, version and the citation of its
 * chunk, each read in one statement. A chunk whose row
 * is gone between the ranking and this read (its file changed meanwhile) is left out.
 */
async function withCitations(ctx: Ctx, found: UnifiedHit[]): Promise<UnifiedHit[]> {
  const fileIds = found.filter((h) => h.kind === FILE_KIND).map((h) => h.id);
  const versions = new Map<string, number>();
  if (fileIds.length > 0)
    for (const f of await ctx.platform.db.kysely.selectFrom('files').select(['id', 'version']).where('id', 'in', fileIds).execute())
      versions.set(f.id, f.version);
  const hits = found.map((h) => (versions.has(h.id) ? { ...h, version: versions.get(h.id)! } : h));
  const ids = hits.filter((h) => h.kind === DOCUMENT_KIND).map((h) => h.id);
  if (ids.length === 0) return hits;
  const rows = await ctx.platform.db.kysely
    .selectFrom('doc_chunks as c')
    .innerJoin('doc_assets as a', 'a.id', 'c.asset_id')
    .select(['c.id', 'c.asset_id', 'c.version', 'c.page', 'c.start_offset', 'c.end_offset', 'c.content_hash', 'a.file_id'])
    .where('c.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A text file that was also understood is found by its own contents already: one hit for it, not two.
  const filesFound = new Set(hits.filter((h) => h.kind === FILE_KIND).map((h) => h.id));
  return hits.flatMap((h) => {
    if (h.kind !== DOCUMENT_KIND) return [h];
    const r = byId.get(h.id);
    if (!r || filesFound.has(r.file_id)) return [];
    const citation = {
      fileAssetId: r.asset_id,
      chunkId: r.id,
      version: r.version,
      page: r.page,
      span: { start: r.start_offset, end: r.end_offset },
      hash: r.content_hash,
    };
    return [{ ...h, id: r.file_id, citation, version: r.version }];
  });
}

/**
 * One ranked search over wiki pages, memory files, text files' contents and the chunks of understood documents
 * that the caller may read (B1), best first, each with a snippet (documents also with the chunk's citation). Read rights are applied in SQL before the limit, so a hidden document
 * never appears nor takes a result's place: wiki pages by channel participation, files by the caller's read
 * scope, documents alike (members: the whole storage; agents: their read scope — other agents' `agents/<id>/` folders are
 * readable with whole-project read, A8), memory by the providers its area registered.
 *
 * @example
 * await searchAll(ctx, { query: 'refund policy' })
 * // [{ kind: 'wiki', path: 'handbook/refunds', title: 'Refunds', snippet: '…', score: 7.1, … }, { kind: 'file', path: 'docs/refunds.md', … }]
 */
export async function searchAll(ctx: Ctx, q: UnifiedQuery, opts: { snippets?: boolean } = {}): Promise<UnifiedHit[]> {
  const kinds = (q.kinds && q.kinds.length > 0 ? q.kinds : [...UNIFIED_KINDS]).filter((k) => (UNIFIED_KINDS as readonly string[]).includes(k));
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.min(SEARCH_OFFSET_MAX, Math.max(0, Math.floor(q.offset ?? 0)));
  // Read-your-writes: the index of every change committed before this search is written first (outbox/drain.ts).
  await ctx.platform.outbox.settle(ctx.project.id);
  const lanes: SearchLane[] = [];
  if (kinds.includes('wiki')) lanes.push({ kind: 'wiki', visibility: await safely(async () => (await wikiViewer(ctx)).visibility) });
  if (kinds.includes('memory')) {
    const memory = new Set<string>();
    for (const p of visibilityProviders.values()) for (const v of await safely(() => p(ctx))) memory.add(v);
    lanes.push({ kind: 'memory', visibility: [...memory] });
  }
  // Files and documents are read by path alike: the whole storage, or an agent's own folder as a path prefix.
  const files = fileReach(ctx);
  for (const k of kinds.filter((k) => k === FILE_KIND || k === DOCUMENT_KIND)) {
    if (files.all) lanes.push({ kind: indexKind(k), visibility: [FILE_VISIBILITY] });
    else if (files.folder) lanes.push({ kind: indexKind(k), visibility: [FILE_VISIBILITY], pathPrefix: `${files.folder}/` });
  }
  const plan = await searchPlan(ctx.platform, q.query, q.mode);
  const hits = await searchLanes(ctx.platform.db, { projectId: ctx.project.id, query: q.query, lanes, limit, offset, ...plan, snippets: opts.snippets });
  return withCitations(ctx, hits.map(toHit));
}
