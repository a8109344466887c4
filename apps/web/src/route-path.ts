/** The client routes; the server answers every other GET with index.html, so these survive a reload. */
export type Page = 'login' | 'join' | 'consent' | 'files' | 'trash' | 'memory' | 'wiki' | 'agents' | 'members' | 'audit' | 'search' | 'account';
const pages: Page[] = ['login', 'join', 'consent', 'files', 'trash', 'memory', 'wiki', 'agents', 'members', 'audit', 'search', 'account'];

/**
 * The page of a path and what follows it (a folder, a wiki page). Free of React, so the first load can read it
 * before the app's code has arrived.
 *
 * @example
 * pageOf('/wiki/handbook/refunds') // { page: 'wiki', rest: 'handbook/refunds' }
 */
export function pageOf(pathname: string): { page: Page; rest: string } {
  const [, first = '', ...rest] = pathname.split('/');
  const page = (pages as string[]).includes(first) ? (first as Page) : 'files';
  return { page, rest: rest.map(decodeURIComponent).join('/') };
}
