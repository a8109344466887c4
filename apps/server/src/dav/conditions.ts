import { StoaError } from '@stoa/contract';
import { contentEtag, type Representation } from '../http/preconditions.js';

/**
 * The RFC 4918 `If` header of a WebDAV request, with its lock tokens and entity tags. The RFC 9110 conditions
 * (If-Match, If-None-Match, the dates, If-Range) are the same as at the HTTP door: ../http/preconditions.ts.
 */
export interface ResourceState extends Representation {
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

/** True when the `If` header holds for the resource states it names (untagged lists apply to the request URL). */
export function ifHeaderHolds(lists: IfList[], stateOf: (resource: string | null) => ResourceState): boolean {
  if (lists.length === 0) return true;
  return lists.some((l) => {
    const s = stateOf(l.resource);
    return l.conditions.every((c) => {
      const ok = c.token !== undefined ? s.lockTokens.includes(c.token) : s.sha256 !== null && strip(c.etag!) === contentEtag(s.sha256);
      return c.not ? !ok : ok;
    });
  });
}
