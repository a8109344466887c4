import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import { navigate, useRoute } from '../router.js';

/**
 * The address of the search page for a query and a kind ("" = all kinds).
 *
 * @example
 * searchHref('refund policy', 'wiki') // "/search?q=refund+policy&kind=wiki"
 */
export function searchHref(q: string, kind = ''): string {
  const p = new URLSearchParams({ q });
  if (kind) p.set('kind', kind);
  return `/search?${p.toString()}`;
}

/**
 * The top bar's search box: searches as you type (issue 31). The first key goes to the search page (a new
 * history entry, so Back returns to where you were); later keys only replace its address, which the page
 * follows. On the search page the box shows the query of the address (a reload, Back and Forward).
 *
 * @example
 * <GlobalSearch />
 */
export function GlobalSearch() {
  const { t } = useI18n();
  const route = useRoute();
  const onSearch = route.page === 'search';
  const inUrl = onSearch ? (new URLSearchParams(route.search).get('q') ?? '') : null;
  const [value, setValue] = useState(inUrl ?? '');
  const typed = useRef(value);
  useEffect(() => {
    // The address changed by something other than typing here (Back, a link): show its query.
    if (inUrl !== null && inUrl !== typed.current) setValue((typed.current = inUrl));
  }, [inUrl]);
  const go = (q: string) => {
    const kind = onSearch ? (new URLSearchParams(route.search).get('kind') ?? '') : '';
    navigate(searchHref(q, kind), onSearch);
  };
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) go(value);
      }}
    >
      <input
        name="q"
        type="search"
        className="global-search"
        autoComplete="off"
        aria-label={t('search.placeholder')}
        placeholder={t('search.placeholder')}
        value={value}
        onChange={(e) => {
          const q = e.currentTarget.value;
          setValue((typed.current = q));
          if (q.trim() || onSearch) go(q);
        }}
      />
    </form>
  );
}
