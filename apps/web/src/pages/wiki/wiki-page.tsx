import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client.js';
import { wikiApi, wikiHref, type WikiHit, type WikiPageData, type WikiSummary } from '../../api/wiki.js';
import { useI18n } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { errorText } from '../../format.js';
import { navigate } from '../../router.js';
import { PageView } from './page-view.js';
import { PageEditor } from './page-editor.js';
import { Snippet } from '../../components/snippet.js';
import { LoadState } from '../../components/load-state.js';
import { useLiveList } from '../../live-changes.js';
import { nameCollator } from '../../intl-cache.js';
import { localeOf } from '../../i18n/lang.js';
import { usePageAction } from '../../commands.js';

/**
 * The tree of pages: nesting by path (W1). A folder level without a page of its own (e.g. "handbook" above
 * "handbook/onboarding") is shown too, muted; opening it offers to create that page. Pages under one parent are
 * in the order people read their names ("Meeting 2" before "Meeting 10"), in the UI's language.
 */
function PageTree({ pages, current }: { pages: WikiSummary[]; current: string }) {
  const { lang } = useI18n();
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const children = new Map<string, string[]>();
  const all = new Set<string>();
  for (const p of pages) {
    const parts = p.path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join('/');
      if (all.has(path)) continue;
      all.add(path);
      const parent = parts.slice(0, i - 1).join('/');
      children.set(parent, [...(children.get(parent) ?? []), path]);
    }
  }
  const labelOf = (path: string) => byPath.get(path)?.title ?? path.slice(path.lastIndexOf('/') + 1);
  const names = nameCollator(localeOf(lang));
  const ordered: string[] = [];
  const walk = (parent: string) => {
    const kids = [...(children.get(parent) ?? [])].sort((a, b) => names.compare(labelOf(a), labelOf(b)) || (a < b ? -1 : 1));
    for (const k of kids) {
      ordered.push(k);
      walk(k);
    }
  };
  walk('');
  return (
    <ul className="wiki-tree">
      {ordered.map((path) => {
        const page = byPath.get(path);
        const depth = path.split('/').length - 1;
        return (
          <li key={path} style={{ paddingLeft: depth * 12 }}>
            <button className={`${path === current ? 'active' : ''}${page ? '' : ' muted'}`} title={path} onClick={() => navigate(wikiHref(path))}>
              {labelOf(path)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The Wiki page (§6): tree, search with snippets, page view, edit, new page. `path` comes from the URL.
 *
 * @example
 * <WikiPage path="handbook/refunds" />
 */
export function WikiPage({ path }: { path: string }) {
  const { t } = useI18n();
  const { project, canEdit } = useSession();
  const [pages, setPages] = useState<WikiSummary[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [page, setPage] = useState<WikiPageData | null>(null);
  const [missing, setMissing] = useState(false);
  const [mode, setMode] = useState<'view' | 'edit' | 'new'>('view');
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<WikiHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [epoch, setEpoch] = useState(0);
  const fail = useCallback((e: unknown) => setError(errorText(e, t)), [t]);
  // Where the list and the page stack (a phone), an open page comes first: the list waits behind a button.
  const [listOpen, setListOpen] = useState(false);
  useEffect(() => setListOpen(false), [path]);
  const listId = useId();

  useEffect(() => {
    setListError(null);
    wikiApi.list(project.id).then(setPages, (e) => setListError(errorText(e, t)));
  }, [project.id, epoch, t]);
  // Someone else's save (a colleague, an agent) shows in the tree and, on the page being read, without a reload
  // (B7); an editor keeps their text and is told that a newer version exists (the save then offers the merge).
  useLiveList(project.id, () => wikiApi.list(project.id), setPages);
  const titles = useMemo(() => (pages ? new Map(pages.map((p) => [p.path, p.title])) : null), [pages]);
  const listed = page && pages?.find((p) => p.path === page.path);
  const behind = !!(page && listed && listed.version > page.version);
  useEffect(() => {
    if (!behind || mode !== 'view' || !page) return;
    let gone = false;
    wikiApi.get(project.id, page.path).then(
      (p) => !gone && p.path === shownPath.current && setPage(p),
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [behind, mode, page, project.id]);

  // A reload of the page on screen (after a save or a restore) keeps it until the fresh one arrives; another
  // page's text is never shown under the new path.
  const shownPath = useRef<string | null>(null);
  useEffect(() => {
    setMode('view');
    if (shownPath.current !== path) setPage(null);
    shownPath.current = path;
    setMissing(false);
    setError(null);
    setPageError(null);
    if (!path) return;
    let gone = false;
    wikiApi.get(project.id, path).then(
      (p) => !gone && setPage(p),
      (e) => {
        if (gone) return;
        if (e instanceof ApiError && e.code === 'not_found') setMissing(true);
        else setPageError(errorText(e, t));
      },
    );
    return () => {
      gone = true;
    };
  }, [project.id, path, epoch, t]);
  // The command palette's New page (issue 31); after the effect above, which opens a page to read.
  usePageAction('newPage', () => setMode('new'));

  useEffect(() => {
    const q = query.trim();
    if (!q) return setHits(null);
    const timer = setTimeout(() => wikiApi.search(project.id, q).then(setHits, fail), 200);
    return () => clearTimeout(timer);
  }, [project.id, query, fail]);

  const saved = (p: string) => {
    setMode('view');
    setEpoch((n) => n + 1);
    navigate(wikiHref(p));
  };

  return (
    <div className="wiki-page two-col">
      <nav className={`side${path && !listOpen ? ' collapsed' : ''}`} aria-label={t('wiki.pages')}>
        {path && (
          <button type="button" className="pages-toggle" aria-expanded={listOpen} aria-controls={listId} onClick={() => setListOpen((o) => !o)}>
            {t('wiki.allPages', { n: pages?.length ?? 0 })}
          </button>
        )}
        <div id={listId} className="side-body">
          <input type="search" aria-label={t('wiki.search')} placeholder={t('wiki.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
          <div className="row">
            <h2>{t('wiki.pages')}</h2>
            <span className="spacer" />
            <button disabled={!canEdit} onClick={() => setMode('new')}>
              {t('wiki.newPage')}
            </button>
          </div>
          {pages ? <PageTree pages={pages} current={path} /> : <LoadState error={listError} onRetry={() => setEpoch((n) => n + 1)} lines={4} />}
        </div>
      </nav>
      <section className="content">
        {!path && <h1>{t('wiki.title')}</h1>}
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        {hits && (
          <div className="search-results">
            <h2>
              {t('common.search')}: {query}
            </h2>
            {hits.length === 0 && <p className="muted">{t('wiki.noResults')}</p>}
            <ul>
              {hits.map((h) => (
                <li key={h.path}>
                  <a
                    href={wikiHref(h.path)}
                    onClick={(e) => {
                      e.preventDefault();
                      setQuery('');
                      navigate(wikiHref(h.path));
                    }}
                  >
                    {h.title}
                  </a>{' '}
                  <small className="muted">{h.path}</small>
                  <Snippet text={h.snippet} highlights={h.highlights} />
                </li>
              ))}
            </ul>
          </div>
        )}
        {!hits && mode === 'view' && path && !page && !missing && <LoadState error={pageError} onRetry={() => setEpoch((n) => n + 1)} />}
        {!hits && mode === 'edit' && behind && (
          <p className="notice warn" role="status">
            {t('live.newerPage')}
          </p>
        )}
        {!hits && mode === 'new' && <PageEditor initialPath={missing ? path : ''} onSaved={saved} onCancel={() => setMode('view')} />}
        {!hits && mode === 'edit' && page && <PageEditor page={page} onSaved={saved} onCancel={() => setMode('view')} />}
        {!hits && mode === 'view' && page && (
          <PageView
            project={project.id}
            page={page}
            canEdit={canEdit}
            titles={titles}
            onEdit={() => setMode('edit')}
            onChanged={(p) => {
              setEpoch((n) => n + 1);
              navigate(p ? wikiHref(p) : '/wiki');
            }}
          />
        )}
        {!hits && mode === 'view' && missing && (
          <div>
            <h1>
              <code>{path}</code>
            </h1>
            <p>{t('wiki.missing')}</p>
            <button disabled={!canEdit} onClick={() => setMode('new')}>
              {t('wiki.createIt')}
            </button>
          </div>
        )}
        {!hits && mode === 'view' && !path && <p className="hint">{t('wiki.choose')}</p>}
      </section>
    </div>
  );
}
