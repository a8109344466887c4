import { StoaError } from '@stoa/contract';
import { MAX_DEPTH, MAX_PATH_CHARS, MAX_SEGMENT_CHARS } from '../paths.js';

/**
 * A wiki path segment: lowercase letters (any script; scripts without case, such as Chinese, are allowed as
 * they are), combining marks, digits, `-` and `_`. No dots, spaces or other punctuation, so a page path is
 * also a clean URL and a clean `[[link]]` target.
 */
const SEGMENT = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}\p{Nl}_-]+$/u;

function refuse(message: string): never {
  throw new StoaError('path_invalid', message);
}

function codePoints(s: string): number {
  return Array.from(s).length;
}

/**
 * Validates and normalises a wiki page path (W1). Input is trimmed, NFC-normalised and folded to lower
 * case (so `Handbook/Refunds` names `handbook/refunds`), one leading or trailing `/` is ignored, and then every
 * segment must consist of lowercase letters, digits, `-` or `_`. Depth and lengths follow the file rules (F1).
 *
 * @example
 * normalizeWikiPath('Handbook/Refunds') // 'handbook/refunds'
 * normalizeWikiPath('справка/数据库')     // 'справка/数据库'
 * normalizeWikiPath('a b')              // throws path_invalid
 */
export function normalizeWikiPath(input: unknown): string {
  if (typeof input !== 'string') refuse('page path must be a string');
  const p = input
    .trim()
    .normalize('NFC')
    .toLowerCase()
    .replace(/^\/|\/$/g, '');
  if (p === '') refuse('page path is empty');
  const segments = p.split('/');
  for (const seg of segments) {
    if (seg === '') refuse('empty path segment ("//") is not allowed');
    if (!SEGMENT.test(seg)) {
      refuse(`segment "${seg}" may contain only lowercase letters, digits, "-" and "_" (e.g. handbook/refund-policy)`);
    }
    if (codePoints(seg) > MAX_SEGMENT_CHARS) refuse(`segment longer than ${MAX_SEGMENT_CHARS} characters`);
  }
  if (segments.length > MAX_DEPTH) refuse(`depth ${segments.length} exceeds ${MAX_DEPTH}`);
  if (codePoints(p) > MAX_PATH_CHARS) refuse(`path longer than ${MAX_PATH_CHARS} characters`);
  return p;
}

/**
 * Like `normalizeWikiPath` but returns null instead of throwing (link targets, imported file names).
 *
 * @example
 * tryWikiPath('Handbook/Refunds') // 'handbook/refunds'
 * tryWikiPath('what?')            // null
 */
export function tryWikiPath(input: string): string | null {
  try {
    return normalizeWikiPath(input);
  } catch {
    return null;
  }
}

/**
 * Turns free text (a link target, a file name) into a wiki path: lower case, spaces and other characters that
 * are not allowed become `-`, runs of `-` collapse. Returns null when nothing usable remains.
 *
 * @example
 * slugifyWikiPath('Handbook/Refund Policy') // 'handbook/refund-policy'
 * slugifyWikiPath('Notes (2024).v2')        // 'notes-2024-v2'
 */
export function slugifyWikiPath(input: string): string | null {
  const segs = input
    .normalize('NFC')
    .toLowerCase()
    .split('/')
    .map((s) =>
      s
        .replace(/[^\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}\p{Nl}_-]+/gu, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-+|(?<!-)-+$/g, ''),
    )
    .filter((s) => s !== '');
  return segs.length === 0 ? null : tryWikiPath(segs.join('/'));
}

/**
 * The title a page shows when its own title is empty (W3): the last path segment with `-`/`_` as spaces
 * and the first letter capitalised.
 *
 * @example
 * titleFromPath('handbook/refund-policy') // 'Refund policy'
 */
export function titleFromPath(path: string): string {
  const last = path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/[-_]+/g, ' ')
    .trim();
  return last ? last[0]!.toUpperCase() + last.slice(1) : path;
}

/**
 * The title to show and index: the stored one, or the one derived from the path when it is empty.
 *
 * @example
 * effectiveTitle('', 'handbook/onboarding') // 'Onboarding'
 */
export function effectiveTitle(title: string, path: string): string {
  return title.trim() !== '' ? title : titleFromPath(path);
}

/** The subtree range of a path: every page below `path/` has `lo <= p < hi` (code-point order). */
export function subtreeRange(path: string): { lo: string; hi: string } {
  return { lo: `${path}/`, hi: `${path}0` };
}

/** Whether `path` is `root` or lies below it. */
export function isAtOrBelow(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}
