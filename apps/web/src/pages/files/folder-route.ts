import { useCallback, useMemo } from 'react';
import { navigate, useRoute } from '../../router.js';
import type { Sort, SortKey } from './file-table.js';

/**
 * The folder a path sits in ('' for the top).
 *
 * @example
 * parentOf('reports/2026/plan.txt') // 'reports/2026'
 */
export const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * The address of a folder of the Files page.
 *
 * @example
 * folderHref('reports/Q1 2026') // '/files/reports/Q1%202026'
 */
export const folderHref = (p: string) => (p ? `/files/${p.split('/').map(encodeURIComponent).join('/')}` : '/files');

/**
 * The open folder and the table's order, both kept in the URL: a deep link opens a folder (/files/reports/2026),
 * Back and Forward walk folders, a reload stays, and the order (?sort=size&dir=desc) stays while folders change.
 *
 * @example
 * const { folder, sort, setFolder, setSort } = useFolderRoute();
 */
export function useFolderRoute() {
  const route = useRoute();
  const folder = route.page === 'files' ? route.rest : '';
  const sort = useMemo<Sort>(() => {
    const q = new URLSearchParams(route.search);
    const key = q.get('sort');
    return { key: key === 'size' || key === 'modified' ? (key as SortKey) : 'name', dir: q.get('dir') === 'desc' ? 'desc' : 'asc' };
  }, [route.search]);
  const sortQuery = sort.key === 'name' && sort.dir === 'asc' ? '' : `?sort=${sort.key}&dir=${sort.dir}`;
  const setFolder = useCallback((p: string, replace = false) => navigate(`${folderHref(p)}${sortQuery}`, replace), [sortQuery]);
  const setSort = (s: Sort) => navigate(`${location.pathname}${s.key === 'name' && s.dir === 'asc' ? '' : `?sort=${s.key}&dir=${s.dir}`}`);
  return { folder, sort, setFolder, setSort };
}
