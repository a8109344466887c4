import { StoaError } from '@stoa/contract';
import { assertHonestName } from './text-rules.js';

export const MAX_DEPTH = 10;
export const MAX_SEGMENT_CHARS = 255;
export const MAX_PATH_CHARS = 512;

/**
 * Which rule of F1 a path breaks, in the problem body (`rule`, with the `segment` or `limit` concerned) so that a
 * client can say it in its own language (issue 29); `message` says the same in English.
 */
type PathRule =
  | 'not_string'
  | 'empty'
  | 'control'
  | 'backslash'
  | 'absolute'
  | 'trailing_slash'
  | 'empty_segment'
  | 'dot_segment'
  | 'segment_too_long'
  | 'too_deep'
  | 'too_long';

function refuse(message: string, rule: PathRule, extra: { segment?: string; limit?: number } = {}): never {
  throw new StoaError('path_invalid', message, { rule, ...extra });
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Validates and normalises a file path (F1): relative, `/`-separated, NFC. Each rule has its own message.
 * Returns the NFC form. `kind: 'folder'` accepts the empty root and ignores one trailing `/`.
 *
 * @example
 * normalizePath('reports/2026/summary.md') // 'reports/2026/summary.md'
 * normalizePath('../etc/passwd')           // throws path_invalid: segment ".." is not allowed
 */
export function normalizePath(input: unknown, kind: 'file' | 'folder' = 'file'): string {
  if (typeof input !== 'string') refuse('path must be a string', 'not_string');
  let p = input.normalize('NFC');
  if (kind === 'folder') {
    if (p === '' || p === '/') return '';
    if (p.endsWith('/')) p = p.slice(0, -1);
  }
  if (p === '') refuse('path is empty', 'empty');
  if (/[\u0000-\u001f\u007f]/.test(p)) refuse('control characters are not allowed in a path', 'control');
  assertHonestName(p, 'path', 'path_invalid');
  if (p.includes('\\')) refuse('backslash is not allowed in a path; use "/"', 'backslash');
  if (p.startsWith('/')) refuse('path must be relative (no leading "/")', 'absolute');
  if (kind === 'file' && p.endsWith('/')) refuse('a file path must not end with "/"', 'trailing_slash');
  const segments = p.split('/');
  for (const seg of segments) {
    if (seg === '') refuse('empty path segment ("//") is not allowed', 'empty_segment');
    if (seg === '.' || seg === '..') refuse(`segment "${seg}" is not allowed`, 'dot_segment', { segment: seg });
    if (codePoints(seg) > MAX_SEGMENT_CHARS)
      refuse(`segment longer than ${MAX_SEGMENT_CHARS} characters`, 'segment_too_long', {
        segment: `${[...seg].slice(0, 40).join('')}…`,
        limit: MAX_SEGMENT_CHARS,
      });
  }
  if (segments.length > MAX_DEPTH) refuse(`depth ${segments.length} exceeds ${MAX_DEPTH}`, 'too_deep', { limit: MAX_DEPTH });
  if (codePoints(p) > MAX_PATH_CHARS) refuse(`path longer than ${MAX_PATH_CHARS} characters`, 'too_long', { limit: MAX_PATH_CHARS });
  return p;
}

/** Parent folder of a path ('' for the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Last segment of a path. */
export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Every ancestor folder of a file path, nearest last: 'a/b/c.md' → ['a', 'a/b']. */
export function ancestorDirs(path: string): string[] {
  const parts = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

/** True when `path` lies inside folder `folder` (segment-wise, so 'agents/a1' does not contain 'agents/a10/x'). */
export function isInside(path: string, folder: string): boolean {
  return folder === '' || path === folder || path.startsWith(folder + '/');
}

/** Escapes a string for use inside a SQL LIKE pattern with `escape '\\'`. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}
