import { useEffect, useRef } from 'react';
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
  const inUrl = route.page === 'search' ? (new URLSearchParams(route.search).get('q') ?? '') : null;
  // Not a controlled input: each key changes the address, and a render that lags behind the keys would put an
  // older text back into the box and lose a letter. The box shows the address's query only while nobody types in
  // it (a reload, Back and Forward, a link).
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = input.current;
    if (inUrl === null || !el || el === document.activeElement || el.value === inUrl) return;
    el.value = inUrl;
  }, [inUrl]);
  // Read from the address itself: the keys can come faster than the renders that follow it.
  const onSearchNow = () => location.pathname === '/search';
  const go = (q: string) => {
    const here = onSearchNow();
    navigate(searchHref(q, here ? (new URLSearchParams(location.search).get('kind') ?? '') : ''), here);
  };
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const q = input.current?.value ?? '';
        if (q.trim()) go(q);
      }}
    >
      <input
        name="q"
        type="search"
        className="global-search"
        autoComplete="off"
        aria-label={t('search.placeholder')}
        placeholder={t('search.placeholder')}
        ref={input}
        onInput={(e) => {
          const q = e.currentTarget.value;
          if (q.trim() || onSearchNow()) go(q);
        }}
      />
    </form>
  );
}
