import { slugifyWikiPath } from './wiki-paths.js';

/** One `[[…]]` link of a page, its target normalised to a wiki path. */
export interface WikiLink {
  /** Target page path, e.g. 'handbook/refunds'. */
  path: string;
  /** Text after `|`, if any. */
  label: string | null;
  /** Text after `#`, if any (a heading of the target page). */
  heading: string | null;
}

/**
 * Removes fenced code blocks and inline code, so `[[x]]` shown as code is not a link. Replaced by spaces of the
 * same length, which keeps offsets of the remaining text.
 */
export function maskCode(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, blank).replace(/`[^`\n]+`/g, blank);
}

/**
 * Parses the wiki links of a markdown text: `[[path]]`, `[[path|label]]`, `[[path#heading]]` and
 * `[[path#heading|label]]`. Targets are folded like page paths (lower case; spaces become `-`); targets that
 * cannot be a page path are ignored. One entry per target, in order of first appearance.
 *
 * @example
 * parseLinks('See [[Handbook/Refunds|refunds]] and [[faq#billing]].')
 * // [{ path: 'handbook/refunds', label: 'refunds', heading: null }, { path: 'faq', label: null, heading: 'billing' }]
 */
export function parseLinks(text: string): WikiLink[] {
  const out = new Map<string, WikiLink>();
  for (const m of maskCode(text).matchAll(/\[\[([^\[\]\n]+?)\]\]/g)) {
    const inner = m[1]!;
    const bar = inner.indexOf('|');
    const target = bar >= 0 ? inner.slice(0, bar) : inner;
    const label = bar >= 0 ? inner.slice(bar + 1).trim() || null : null;
    const hash = target.indexOf('#');
    const rawPath = (hash >= 0 ? target.slice(0, hash) : target).trim();
    const heading = hash >= 0 ? target.slice(hash + 1).trim() || null : null;
    const path = rawPath ? slugifyWikiPath(rawPath) : null;
    if (!path || out.has(path)) continue;
    out.set(path, { path, label, heading });
  }
  return [...out.values()];
}
