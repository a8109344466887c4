import { useEffect, useState } from 'react';
import { searchAll, type SearchHit } from '../api/search.js';
import { wikiHref } from '../api/wiki.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { navigate } from '../router.js';
import { Snippet } from '../components/snippet.js';
import { LoadState } from '../components/load-state.js';

/** Where a hit opens: wiki pages in the wiki, memory files in Settings → Memory, files and documents in Files. */
function open(h: SearchHit) {
  if (h.kind === 'wiki') navigate(wikiHref(h.path));
  else if (h.kind === 'memory') navigate('/memory');
  else navigate(`/files?path=${encodeURIComponent(h.path)}`);
}

/**
 * One ranked search over wiki, memory and file contents (B1); the query is in the URL (?q=).
 *
 * @example
 * navigate('/search?q=refunds'); // renders <SearchPage />
 */
export function SearchPage() {
  const { t, lang } = useI18n();
  const { project } = useSession();
  const q = new URLSearchParams(location.search).get('q') ?? '';
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setHits(null);
    setError(null);
    if (!q.trim()) return setHits([]);
    searchAll(project.id, q).then(setHits, (e) => setError(errorText(e, t)));
  }, [project.id, q, t, attempt]);

  return (
    <div className="search-page">
      <h1>{t('search.title', { q })}</h1>
      {!hits && <LoadState error={error} onRetry={() => setAttempt((n) => n + 1)} />}
      {hits && hits.length === 0 && <p className="empty">{t('search.none')}</p>}
      {hits && hits.length > 0 && (
        <ul className="hits">
          {hits.map((h) => (
            <li key={`${h.kind}:${h.id}:${h.path}`} data-kind={h.kind}>
              <span className="tag">{t(`search.kind.${h.kind}` as MessageKey)}</span>{' '}
              <button className="link" onClick={() => open(h)}>
                {h.title}
              </button>{' '}
              <small className="muted">
                {h.path} · {formatDate(h.updated, lang)}
                {/* No word of the query may be in its snippet: say why it is here. */}
                {!h.matchedBy.includes('lexical') && <> · {t('search.byMeaning')}</>}
              </small>
              <Snippet text={h.snippet} highlights={h.highlights} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
