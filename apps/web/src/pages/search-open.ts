import type { SearchHit } from '../api/search.js';
import { wikiApi, wikiHref } from '../api/wiki.js';
import { memoryApi, memoryHref } from '../api/memory.js';
import { headingBefore } from '../markdown-text.js';

/**
 * Where a hit opens, exactly what it found (issue 31): a wiki page at the heading the match is under, the memory
 * file selected in Memory, a file's preview, a document's preview at its page. Built from the fields hits have
 * (path, title, citation); a precise locator, once hits carry one, goes here alone.
 *
 * @example
 * navigate(await hitHref('default', hit)); // "/wiki/handbook/refunds#Refund%20times"
 */
export async function hitHref(project: string, h: SearchHit): Promise<string> {
  if (h.kind === 'wiki') {
    const page = await wikiApi.get(project, h.path).catch(() => null);
    const heading = page && headingBefore(page.text, h.snippet, h.highlights);
    return wikiHref(h.path) + (heading ? `#${encodeURIComponent(heading)}` : '');
  }
  if (h.kind === 'memory') {
    // Memory paths: AGENTS.md, <conversation>/MEMORY.md, SOUL.md (whose agent only the list's title tells).
    if (h.path === 'AGENTS.md') return memoryHref({ file: 'AGENTS.md' });
    const conversation = /^([^/]+)\/MEMORY\.md$/.exec(h.path)?.[1];
    if (conversation) return memoryHref({ file: 'MEMORY.md', conversation });
    const entry = (await memoryApi.list(project).catch(() => [])).find((e) => e.file === 'SOUL.md' && e.title === h.title);
    return entry ? memoryHref(entry) : '/memory';
  }
  const page = h.kind === 'document' && h.citation?.page ? `&page=${h.citation.page}` : '';
  return `/files?path=${encodeURIComponent(h.path)}${page}`;
}
