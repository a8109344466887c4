import { useEffect, useState } from 'react';
import { personalApi, type PersonalItem } from '../../api/personal.js';
import { wikiHref } from '../../api/wiki.js';
import { useFavourites } from '../../favourites.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatDate } from '../../format.js';
import { navigate } from '../../router.js';
import { LoadState } from '../../components/load-state.js';
import { Icon } from '../../components/icons.js';
import { StarButton } from '../../components/star-button.js';
import { folderHref } from './folder-route.js';
import { previewHref } from './preview-state.js';

/** Which of the person's lists the Files page shows in place of a folder (`/files?view=favourites`). */
export type PersonalView = 'favourites' | 'recent';

/** Where an item opens: a file's preview in its folder, a folder, a wiki page. */
const hrefOf = (i: PersonalItem) => (i.kind === 'file' ? previewHref(i.path) : i.kind === 'folder' ? folderHref(i.path) : wikiHref(i.path));

/**
 * The links to the person's lists, above the folder tree.
 *
 * @example
 * <PersonalViewLinks view={view} />
 */
export function PersonalViewLinks({ view }: { view: PersonalView | null }) {
  const { t } = useI18n();
  const link = (v: PersonalView, label: string) => (
    <a
      href={`/files?view=${v}`}
      aria-current={view === v ? 'page' : undefined}
      className={view === v ? 'active' : ''}
      onClick={(e) => {
        e.preventDefault();
        navigate(`/files?view=${v}`);
      }}
    >
      {label}
    </a>
  );
  return (
    <nav className="personal-views" aria-label={t('fav.lists')}>
      {link('favourites', t('fav.title'))}
      {link('recent', t('recent.title'))}
    </nav>
  );
}

/**
 * Favourites (starred files, folders and wiki pages, for this person only) or Recent (files and pages the person
 * opened lately, noted by the UI when it shows one). The server lists only what the person may still read and
 * what still exists, so a star never shows what one may no longer see.
 *
 * @example
 * <PersonalList project={pid} view="favourites" onError={fail} />
 */
export function PersonalList({ project, view, onError }: { project: string; view: PersonalView; onError: (m: string) => void }) {
  const { t, lang } = useI18n();
  const fav = useFavourites(project);
  const [recent, setRecent] = useState<PersonalItem[] | null>(null);
  const [recentError, setRecentError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (view !== 'recent') return;
    setRecent(null);
    setRecentError(null);
    personalApi.recent(project).then(setRecent, (e: unknown) => setRecentError(errorText(e, t)));
  }, [project, view, attempt]);
  // The favourites are asked for again each time the list is opened: a star may have been given elsewhere.
  useEffect(() => {
    if (view === 'favourites') fav.reload();
  }, [project, view]);

  const items = view === 'favourites' ? fav.items : recent;
  const error = view === 'favourites' ? (fav.error ? errorText(fav.error, t) : null) : recentError;
  return (
    <section className="personal-list" aria-labelledby="personal-list-title">
      <h2 id="personal-list-title">{view === 'favourites' ? t('fav.title') : t('recent.title')}</h2>
      {items === null ? (
        <LoadState error={error} onRetry={() => (view === 'favourites' ? fav.reload() : setAttempt((n) => n + 1))} lines={3} />
      ) : items.length === 0 ? (
        <p className="empty">{view === 'favourites' ? t('fav.empty') : t('recent.empty')}</p>
      ) : (
        <ul className="personal-items">
          {items.map((i) => (
            <li key={`${i.kind}:${i.path}`} data-kind={i.kind}>
              <Icon name={i.kind === 'folder' ? 'folder' : 'file-text'} />
              <a
                href={hrefOf(i)}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(hrefOf(i));
                }}
              >
                {i.name}
              </a>
              <small className="muted">
                {t(i.kind === 'page' ? 'fav.kindPage' : i.kind === 'folder' ? 'fav.kindFolder' : 'fav.kindFile')} · {i.path} · {formatDate(i.at, lang)}
              </small>
              {view === 'favourites' && <StarButton project={project} kind={i.kind} path={i.path} onError={onError} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
