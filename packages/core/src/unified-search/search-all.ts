import { SEARCH_OFFSET_MAX, StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { agentFolder, effectiveScopes } from '../policies/agent-scopes.js';
import { MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, searchDocs, type SearchHit, type SearchMode } from '../search/index.js';
import { searchPlan } from '../embeddings/search-mode.js';
import { wikiViewer } from '../wiki/visibility.js';
import { FILE_KIND, FILE_VISIBILITY } from './file-index.js';
import { UNIFIED_KINDS, visibilityProviders } from './providers.js';
import './memory-provider.js';

/** One hit of the one search (B1), best first. */
export interface UnifiedHit {
  /** 'wiki' | 'memory' | 'file'. */
  kind: string;
  /** Page path, memory file path, or file path from the storage root. */
  path: string;
  title: string;
  snippet: string;
  /** [start, end) offsets of the matched words in `snippet`. */
  highlights: Array<[number, number]>;
  score: number;
  updated: string;
  /** ID of the page, memory file or file. */
  id: string;
  /** Which rankings found it: `lexical`, `vector`, or both (hybrid). */
  matchedBy: Array<'lexical' | 'vector'>;
}

export interface UnifiedQuery {
  query: string;
  /** Restrict to some kinds (default: wiki, memory and file). */
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

function toHit(h: SearchHit): UnifiedHit {
  return {
    kind: h.kind,
    path: h.path,
    title: h.title,
    snippet: h.snippet,
    highlights: h.highlights,
    score: h.score,
    updated: h.updatedAt,
    id: h.refId,
    matchedBy: h.matchedBy,
  };
}

/**
 * One ranked search over wiki pages, memory files and text files' contents that the caller may read (B1),
 * best first, each with a snippet. Read rights are applied in SQL before the limit, so a hidden document
 * never appears nor takes a result's place: wiki pages by channel participation, files by the caller's read
 * scope (members: the whole storage; agents: their read scope — other agents' `agents/<id>/` folders are
 * readable with whole-project read, A8), memory by the providers its area registered.
 *
 * @example
 * await searchAll(ctx, { query: 'refund policy' })
 * // [{ kind: 'wiki', path: 'handbook/refunds', title: 'Refunds', snippet: '…', score: 7.1, … }, { kind: 'file', path: 'docs/refunds.md', … }]
 */
export async function searchAll(ctx: Ctx, q: UnifiedQuery): Promise<UnifiedHit[]> {
  const kinds = (q.kinds && q.kinds.length > 0 ? q.kinds : [...UNIFIED_KINDS]).filter((k) => (UNIFIED_KINDS as readonly string[]).includes(k));
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(q.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.min(SEARCH_OFFSET_MAX, Math.max(0, Math.floor(q.offset ?? 0)));
  const visibility = new Set<string>();
  if (kinds.includes('wiki')) for (const v of await safely(async () => (await wikiViewer(ctx)).visibility)) visibility.add(v);
  if (kinds.includes('memory')) for (const p of visibilityProviders.values()) for (const v of await safely(() => p(ctx))) visibility.add(v);
  const files = kinds.includes(FILE_KIND) ? fileReach(ctx) : { all: false, folder: null };
  if (files.all) visibility.add(FILE_VISIBILITY);
  const { db } = ctx.platform;
  const base = { projectId: ctx.project.id, query: q.query, ...(await searchPlan(ctx.platform, q.query, q.mode)) };
  // Files carry one visibility value; whole-storage readers get it above, an own-folder agent gets its folder
  // through a second, path-limited query whose hits are merged by score.
  const otherKinds = files.all ? kinds : kinds.filter((k) => k !== FILE_KIND);
  const main =
    visibility.size === 0 || otherKinds.length === 0
      ? []
      : await searchDocs(db, {
          ...base,
          kinds: otherKinds,
          visibility: [...visibility],
          limit: files.folder ? offset + limit : limit,
          offset: files.folder ? 0 : offset,
        });
  if (!files.folder) return main.map(toHit);
  const own = await searchDocs(db, {
    ...base,
    kinds: [FILE_KIND],
    visibility: [FILE_VISIBILITY],
    pathPrefix: `${files.folder}/`,
    limit: offset + limit,
    offset: 0,
  });
  return [...main, ...own]
    .sort((a, b) => b.score - a.score)
    .slice(offset, offset + limit)
    .map(toHit);
}
