import { useMemo } from 'react';
import { navigate as go, usePathname, useSearch } from 'wouter/use-browser-location';
import { pageOf } from './route-path.js';

import type { Page } from './route-path.js';

export type { Page };

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
