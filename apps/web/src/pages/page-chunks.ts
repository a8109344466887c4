import type { Page } from '../route-path.js';

/**
 * The pages other than Files, each its own chunk, loaded the first time it is opened; the first load of a deep
 * link starts its page's chunk at once, beside the session's requests (first-load.ts), rather than after them.
 *
 * @example
 * const WikiPage = lazy(() => pageChunks.wiki().then((m) => ({ default: m.WikiPage })));
 */
export const pageChunks = {
  memory: () => import('./memory/memory-page.js'),
  wiki: () => import('./wiki/wiki-page.js'),
  agents: () => import('./agents-page.js'),
  audit: () => import('./audit-page.js'),
  search: () => import('./search-page.js'),
  members: () => import('./members-page.js'),
  consent: () => import('./consent-page.js'),
  account: () => import('./account-page.js'),
  trash: () => import('./trash-page.js'),
} satisfies Partial<Record<Page, () => Promise<unknown>>>;
