import { useEffect, useState } from 'react';
import { searchResults, type SearchHit, type SearchPage as Results } from '../api/search.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { navigate, useRoute } from '../router.js';
import { Snippet } from '../components/snippet.js';
import { LoadState } from '../components/load-state.js';
import { hitHref } from './search-open.js';
import { searchHref } from '../components/global-search.js';

/** The filter chips: every kind, then each; "" is All. */
const KINDS = ['', 'file', 'wiki', 'memory', 'document'] as const;
type Kind = (typeof KINDS)[number];
/** A pause in typing this long (ms) before a search goes out: one request per word, not per key. */
const TYPING_PAUSE_MS = 150;
/** Counts stop at 100 (the server's cap): 100 reads "100+". */
const countText = (n: number) => (n >= 100 ? '100+' : String(n));

/**
 * One ranked search over wiki, memory, file contents and documents (B1), as you type (issue 31): the query and
 * the kind are in the URL (?q=…&kind=…), so a reload or Back comes back to the same results; a newer query
 * cancels the request of an older one; kinds are chips with their counts; "More results" follows the cursor.
 *
 * @example
 * navigate('/search?q=refunds&kind=wiki'); // renders <SearchPage />
 */
export function SearchPage() {
  const { t, lang } = useI18n();
  const { project } = useSession();
  const route = useRoute();
  const params = new URLSearchParams(route.search);
  const q = params.get('q') ?? '';
  const kind = (KINDS as readonly string[]).includes(params.get('kind') ?? '') ? (params.get('kind') as Kind) : '';
  const [results, setResults] = useState<(Results & { q: string; kind: Kind }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState(false);

  useEffect(() => {
    setError(null);
    if (!q.trim()) return setResults(null);
    const stop = new AbortController();
    const timer = setTimeout(() => {
      searchResults(project.id, { q, kinds: kind || undefined }, stop.signal).then(
        (r) => setResults({ ...r, q, kind }),
        (e: unknown) => !stop.signal.aborted && setError(errorText(e, t)),
      );
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      stop.abort();
    };
  }, [project.id, q, kind, t, attempt]);

  const loadMore = () => {
    if (!results?.nextCursor || more) return;
    setMore(true);
    const shown = results;
    searchResults(project.id, { q: shown.q, kinds: shown.kind || undefined, cursor: shown.nextCursor! })
      .then(
        (r) => setResults((now) => (now === shown ? { ...now, hits: [...now.hits, ...r.hits], nextCursor: r.nextCursor } : now)),
        (e: unknown) => setError(errorText(e, t)),
      )
      .finally(() => setMore(false));
  };
  const open = async (h: SearchHit) => {
    try {
      navigate(await hitHref(project.id, h));
    } catch (e) {
      setError(errorText(e, t));
    }
  };

  const current = results && results.q === q && results.kind === kind ? results : null;
  const counts = results?.q === q ? results.counts : null;
  const all = counts ? counts.wiki + counts.memory + counts.file + counts.document : 0;
  return (
    <div className="search-page">
      <h1>{q.trim() ? t('search.title', { q }) : t('search.empty')}</h1>
      {q.trim() && (
        <div className="chips" role="group" aria-label={t('search.kinds')}>
          {KINDS.map((k) => (
            <button key={k || 'all'} type="button" className="chip" aria-pressed={k === kind} onClick={() => navigate(searchHref(q, k), true)}>
              {t(k ? (`search.chip.${k}` as MessageKey) : 'search.chip.all')}
              {counts && <span className="count">{countText(k ? counts[k] : all)}</span>}
            </button>
          ))}
        </div>
      )}
      {q.trim() && !current && <LoadState error={error} onRetry={() => setAttempt((n) => n + 1)} />}
      <p className="sr-only" role="status">
        {current ? t('search.found', { n: current.hits.length }) : ''}
      </p>
      {current && current.hits.length === 0 && <p className="empty">{t('search.none')}</p>}
      {current && current.hits.length > 0 && (
        <ul className="hits">
          {current.hits.map((h) => (
            <li key={`${h.kind}:${h.id}:${h.path}:${h.citation?.chunkId ?? ''}`} data-kind={h.kind}>
              <span className="tag">{t(`search.kind.${h.kind}` as MessageKey)}</span>{' '}
              <button className="link" onClick={() => void open(h)}>
                {h.title}
              </button>{' '}
              <small className="muted">
                {h.path}
                {h.citation?.page ? <> · {t('search.page', { n: h.citation.page })}</> : null} · {formatDate(h.updated, lang)}
                {/* No word of the query may be in its snippet: say why it is here. */}
                {!h.matchedBy.includes('lexical') && <> · {t('search.byMeaning')}</>}
              </small>
              <Snippet text={h.snippet} highlights={h.highlights} />
            </li>
          ))}
        </ul>
      )}
      {current?.nextCursor && (
        <p>
          <button type="button" disabled={more} onClick={loadMore}>
            {t('search.more')}
          </button>
        </p>
      )}
      {current && error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
