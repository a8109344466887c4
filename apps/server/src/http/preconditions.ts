import { StoaError } from '@stoa/contract';

/**
 * RFC 9110 conditional requests, once for every door (issue 28): the HTTP file routes and WebDAV evaluate
 * If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since and If-Range here, against one entity tag per
 * content (`contentEtag`) and one Last-Modified.
 */

/** What a precondition compares: whether the file exists, its content hash and when it last changed. */
export interface Representation {
  exists: boolean;
  /** sha256 of the current content, or null (nothing there, or a folder). */
  sha256: string | null;
  /** Last modification, or null when the representation has none (a folder, an older version). */
  modified: Date | null;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The strong entity tag of some content: the first 128 bits of its sha256, quoted. The same bytes give the same
 * tag at every door. Shorter than the whole hash because some clients copy tags into fixed-size If headers
 * (litmus/neon cuts an `If` header of two 64-digit tags short).
 */
export function contentEtag(sha256: string): string {
  return `"${sha256.slice(0, 32)}"`;
}

/** The Last-Modified value of a moment (an HTTP-date, whole seconds). */
export function httpDate(at: Date | string): string {
  return new Date(at).toUTCString();
}

/** An entity tag list: `*`, or the tags with their weakness. Anything that is not a tag is skipped. */
function tagList(h: string): { any: boolean; tags: { weak: boolean; opaque: string }[] } {
  if (h.trim() === '*') return { any: true, tags: [] };
  const tags = [...h.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({ weak: m[1] !== undefined, opaque: m[2]! }));
  return { any: false, tags };
}

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function parseDate(h: string | undefined): Date | null {
  if (!h) return null;
  const d = new Date(h);
  return Number.isNaN(d.getTime()) ? null : d;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * RFC 9110 section 13.2.2, steps 1–4: 304 (a GET/HEAD the client already holds), 412 (precondition failed) or null
 * (go on). If-Match compares strongly (a weak tag never matches), If-None-Match weakly; the date conditions count
 * only when the matching tag condition is absent, and If-Modified-Since only on reads.
 */
export function evaluatePreconditions(method: string, headers: Headers, r: Representation): 304 | 412 | null {
  const read = method === 'GET' || method === 'HEAD';
  const tag = r.exists && r.sha256 !== null ? contentEtag(r.sha256) : null;
  const ifMatch = header(headers, 'if-match');
  if (ifMatch !== undefined) {
    const l = tagList(ifMatch);
    if (!(l.any ? r.exists : tag !== null && l.tags.some((t) => !t.weak && t.opaque === tag))) return 412;
  } else {
    const since = parseDate(header(headers, 'if-unmodified-since'));
    if (since && r.exists && r.modified && seconds(r.modified) > seconds(since)) return 412;
  }
  const ifNoneMatch = header(headers, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    const l = tagList(ifNoneMatch);
    if (l.any ? r.exists : tag !== null && l.tags.some((t) => t.opaque === tag)) return read ? 304 : 412;
  } else if (read) {
    const since = parseDate(header(headers, 'if-modified-since'));
    if (since && r.exists && r.modified && seconds(r.modified) <= seconds(since)) return 304;
  }
  return null;
}

/**
 * RFC 9110 section 13.1.5: whether a Range may be served. Without If-Range, yes. An entity tag must match strongly, a
 * date must equal Last-Modified exactly; otherwise the client gets the whole current content (200), never a
 * range of other bytes spliced onto what it has, and never 412.
 */
export function ifRangeHolds(headers: Headers, r: Representation): boolean {
  const h = header(headers, 'if-range')?.trim();
  if (h === undefined || h === '') return true;
  if (!r.exists || r.sha256 === null) return false;
  if (h.startsWith('"') || h.startsWith('W/')) return h === contentEtag(r.sha256);
  const d = parseDate(h);
  return d !== null && r.modified !== null && seconds(d) === seconds(r.modified);
}

/** True when a write carries a condition this module decides (If-Match, If-None-Match, If-Unmodified-Since). */
export function hasWriteConditions(headers: Headers): boolean {
  return ['if-match', 'if-none-match', 'if-unmodified-since'].some((n) => header(headers, n) !== undefined);
}

/** The file a conditional write is about, as the core reports it (null when nothing is there). */
interface CurrentFile {
  sha256: string;
  version: number;
  modified: string;
}

/**
 * Turns the conditions of a write (PUT or DELETE) into the version the core must still find: precondition_failed
 * now when they fail, else the current version (0: must not exist), which the core checks in the same transaction
 * as the write, so a change in between fails too (see `asPreconditionFailure`).
 */
export function pinnedVersion(method: string, headers: Headers, current: CurrentFile | null): number {
  const r: Representation = { exists: current !== null, sha256: current?.sha256 ?? null, modified: current ? new Date(current.modified) : null };
  if (evaluatePreconditions(method, headers, r) !== null) {
    throw new StoaError(
      'precondition_failed',
      current ? 'the file does not match the If-Match / If-None-Match / If-Unmodified-Since conditions' : 'the file does not exist',
    );
  }
  return current?.version ?? 0;
}

/** A version conflict of a write pinned by `pinnedVersion` is a failed precondition to the client that sent it. */
export function asPreconditionFailure(e: unknown): unknown {
  return e instanceof StoaError && e.code === 'version_conflict' ? new StoaError('precondition_failed', 'the file changed while the request was checked') : e;
}
