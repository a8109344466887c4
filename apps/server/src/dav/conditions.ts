import { StoaError } from '@stoa/contract';

/**
 * Preconditions of a WebDAV request: the RFC 9110 headers (If-Match, If-None-Match, If-Unmodified-Since,
 * If-Modified-Since) and the RFC 4918 `If` header with its lock tokens and entity tags.
 */
export interface ResourceState {
  exists: boolean;
  etag: string | null;
  modified: Date | null;
  lockTokens: string[];
}

/** One condition of an `If` list: a lock token or an entity tag, possibly negated. */
interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}
interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

/** Parses an `If` header (RFC 4918 §10.4); bad syntax is bad_request. */
export function parseIfHeader(header: string | undefined): IfList[] {
  if (!header) return [];
  const lists: IfList[] = [];
  let resource: string | null = null;
  const re = /\s*(?:<([^>]*)>|\(([^)]*)\))/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < header.length && (m = re.exec(header))) {
    at = re.lastIndex;
    if (m[1] !== undefined) {
      resource = m[1];
      continue;
    }
    const conditions: IfCondition[] = [];
    const inner = /\s*(Not\s+)?(?:<([^>]*)>|\[([^\]]*)\])/iy;
    const body = m[2]!;
    let n: RegExpExecArray | null;
    let j = 0;
    while (j < body.trim().length && (n = inner.exec(body))) {
      j = inner.lastIndex;
      conditions.push({ not: !!n[1], ...(n[2] !== undefined ? { token: n[2] } : { etag: n[3] }) });
    }
    if (body.slice(j).trim() !== '' || conditions.length === 0) throw new StoaError('bad_request', 'the If header is not valid');
    lists.push({ resource, conditions });
  }
  if (header.slice(at).trim() !== '') throw new StoaError('bad_request', 'the If header is not valid');
  return lists;
}

/** Every lock token named in the `If` header: what the client submits as held. */
export function submittedTokens(lists: IfList[]): string[] {
  return lists.flatMap((l) => l.conditions.filter((c) => c.token !== undefined).map((c) => c.token!));
}

const strip = (etag: string) => etag.trim().replace(/^W\//, '');

/**
 * The strong entity tag of a file's content: the first 128 bits of its sha256, so equal bytes always give the
 * same tag. Shorter than the whole hash because some clients copy tags into fixed-size If headers.
 */
export function contentEtag(sha256: string): string {
  return `"${sha256.slice(0, 32)}"`;
}

/** True when the `If` header holds for the resource states it names (untagged lists apply to the request URL). */
export function ifHeaderHolds(lists: IfList[], stateOf: (resource: string | null) => ResourceState): boolean {
  if (lists.length === 0) return true;
  return lists.some((l) => {
    const s = stateOf(l.resource);
    return l.conditions.every((c) => {
      const ok = c.token !== undefined ? s.lockTokens.includes(c.token) : s.etag !== null && strip(c.etag!) === contentEtag(s.etag);
      return c.not ? !ok : ok;
    });
  });
}

function etagList(h: string): string[] {
  return h
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function httpDate(h: string | undefined): Date | null {
  if (!h) return null;
  const d = new Date(h);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * RFC 9110 section 13.2.2 evaluation order. Returns 304 (GET/HEAD not modified), 412 (precondition failed) or null
 * (go on). Entity tags compare strongly for If-Match and weakly for If-None-Match.
 */
export function checkPreconditions(method: string, headers: Record<string, string | string[] | undefined>, s: ResourceState): 304 | 412 | null {
  const read = method === 'GET' || method === 'HEAD';
  const tag = s.etag === null ? null : contentEtag(s.etag);
  const ifMatch = headers['if-match'] as string | undefined;
  if (ifMatch !== undefined) {
    const list = etagList(ifMatch);
    const ok = list.includes('*') ? s.exists : tag !== null && list.some((e) => !e.startsWith('W/') && e === tag);
    if (!ok) return 412;
  } else {
    const since = httpDate(headers['if-unmodified-since'] as string | undefined);
    if (since && s.exists && s.modified && Math.floor(s.modified.getTime() / 1000) > Math.floor(since.getTime() / 1000)) return 412;
  }
  const ifNone = headers['if-none-match'] as string | undefined;
  if (ifNone !== undefined) {
    const list = etagList(ifNone);
    const match = list.includes('*') ? s.exists : tag !== null && list.some((e) => strip(e) === tag);
    if (match) return read ? 304 : 412;
  } else if (read) {
    const since = httpDate(headers['if-modified-since'] as string | undefined);
    if (since && s.exists && s.modified && Math.floor(s.modified.getTime() / 1000) <= Math.floor(since.getTime() / 1000)) return 304;
  }
  return null;
}
