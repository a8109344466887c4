import { useMemo } from 'react';
import { navigate as go, usePathname, useSearch } from 'wouter/use-browser-location';

/** The client routes; the server answers every other GET with index.html, so these survive a reload. */
export type Page = 'login' | 'files' | 'memory' | 'wiki' | 'agents' | 'members' | 'audit' | 'search';
const pages: Page[] = ['login', 'files', 'memory', 'wiki', 'agents', 'members', 'audit', 'search'];

/**
 * The page of a path and what follows it (a folder, a wiki page).
 *
 * @example
 * pageOf('/wiki/handbook/refunds') // { page: 'wiki', rest: 'handbook/refunds' }
 */
export function pageOf(pathname: string): { page: Page; rest: string } {
  const [, first = '', ...rest] = pathname.split('/');
  const page = (pages as string[]).includes(first) ? (first as Page) : 'files';
  return { page, rest: rest.map(decodeURIComponent).join('/') };
}

/**
 * Goes to a client route without reloading (wouter's browser location: pushState, or replaceState).
 *
 * @example
 * navigate('/wiki/handbook/onboarding');
 */
export function navigate(to: string, replace = false): void {
  go(to, { replace });
}

/**
 * Re-renders on navigation (links, Back and Forward) and returns the current route.
 *
 * @example
 * const { page, rest } = useRoute();
 */
export function useRoute(): { page: Page; rest: string; search: string } {
  const pathname = usePathname();
  // The browser location's query as location.search has it, "?" included.
  const search = useSearch();
  return useMemo(() => ({ ...pageOf(pathname), search }), [pathname, search]);
}
