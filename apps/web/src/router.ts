import { useEffect, useState } from 'react';

/** The client routes; the server answers every other GET with index.html, so these survive a reload. */
export type Page = 'login' | 'files' | 'memory' | 'wiki' | 'agents' | 'members' | 'audit' | 'search';
const pages: Page[] = ['login', 'files', 'memory', 'wiki', 'agents', 'members', 'audit', 'search'];

/**
 * @example
 * currentPage() // on /wiki/handbook/refunds: { page: 'wiki', rest: 'handbook/refunds' }
 */
function currentPage(): { page: Page; rest: string } {
  const [, first = '', ...rest] = location.pathname.split('/');
  const page = (pages as string[]).includes(first) ? (first as Page) : 'files';
  return { page, rest: rest.map(decodeURIComponent).join('/') };
}

/**
 * Goes to a client route without reloading.
 *
 * @example
 * navigate('/wiki/handbook/onboarding');
 */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * Re-renders on navigation and returns the current route.
 *
 * @example
 * const { page, rest } = useRoute();
 */
export function useRoute(): { page: Page; rest: string; search: string } {
  const [route, setRoute] = useState(() => ({ ...currentPage(), search: location.search }));
  useEffect(() => {
    const on = () => setRoute({ ...currentPage(), search: location.search });
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return route;
}
