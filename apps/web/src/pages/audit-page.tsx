import { useCallback, useEffect, useMemo, useState } from 'react';
import { navigate, useRoute } from '../router.js';
import { filesApi, type AuditPage as AuditData } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { useSession } from '../session.js';
import { errorText, formatBytes, formatDate } from '../format.js';
import { LoadState } from '../components/load-state.js';
import { auditActions } from '@stoa/contract/audit-actions';

type Entry = AuditData['entries'][number];

/**
 * The audit log (F15): people's uploads, moves and deletes, newest first; admins only.
 *
 * @example
 * {route.page === 'audit' && <AuditPage />}
 */
export function AuditPage() {
  const { t, lang } = useI18n();
  const { project, isAdmin } = useSession();
  // The filter lives in the URL (/audit?action=file.delete&path=…): a reload, Back and a shared link keep it.
  const { search } = useRoute();
  const filter = useMemo(() => {
    const q = new URLSearchParams(search);
    return { action: q.get('action') ?? '', path: q.get('path') ?? '' };
  }, [search]);
  const [pathText, setPathText] = useState(filter.path);
  useEffect(() => setPathText(filter.path), [filter.path]);
  const applyFilter = (next: { action: string; path: string }) => {
    const q = new URLSearchParams();
    if (next.action) q.set('action', next.action);
    if (next.path.trim()) q.set('path', next.path.trim());
    navigate(q.size ? `/audit?${q}` : '/audit');
  };
  const [entries, setEntries] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (before: number | null) => {
      try {
        setError(null);
        const r = await filesApi.audit(project.id, before, filter);
        setEntries((l) => (before === null ? r.entries : [...l, ...r.entries]));
        setCursor(r.nextCursor);
        setLoaded(true);
      } catch (e) {
        setError(errorText(e, t));
      }
    },
    [project.id, t, filter],
  );

  useEffect(() => {
    setLoaded(false);
    if (isAdmin) void load(null);
  }, [isAdmin, load]);

  // Known actions are translated; a new kind of entry still shows, under its code.
  const actionLabel = (a: string) => {
    const key = `audit.action.${a}` as MessageKey;
    const s = t(key);
    return s === key ? a : s;
  };

  if (!isAdmin)
    return (
      <div>
        <h1>{t('audit.title')}</h1>
        <p className="hint">{t('audit.adminsOnly')}</p>
      </div>
    );
  return (
    <div className="audit-page">
      <h1>{t('audit.title')}</h1>
      {loaded && error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <form
        className="row audit-filter"
        role="search"
        aria-label={t('audit.filter')}
        onSubmit={(e) => {
          e.preventDefault();
          applyFilter({ action: filter.action, path: pathText });
        }}
      >
        <label>
          {t('audit.action')}{' '}
          <select value={filter.action} onChange={(e) => applyFilter({ action: e.target.value, path: pathText })}>
            <option value="">{t('audit.allActions')}</option>
            {/* Every action a project's log records (F15), offered as filters. */}
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.target')} <input value={pathText} onChange={(e) => setPathText(e.target.value)} placeholder="reports/q1.csv" />
        </label>
        <button type="submit">{t('audit.apply')}</button>
      </form>
      {!loaded && <LoadState error={error} onRetry={() => void load(null)} />}
      {loaded && entries.length === 0 && <p className="empty">{t('common.none')}</p>}
      {entries.length > 0 && (
        // Focusable: on a phone the table scrolls sideways, and a keyboard user scrolls it with the arrow keys.
        <table className="grid audit" tabIndex={0} aria-label={t('nav.audit')}>
          <thead>
            <tr>
              <th>{t('audit.at')}</th>
              <th>{t('audit.actor')}</th>
              <th>{t('audit.action')}</th>
              <th>{t('audit.target')}</th>
              <th className="num">{t('files.col.size')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.at, lang)}</td>
                <td>{e.actor.name ?? e.actor.id ?? e.actor.kind}</td>
                <td title={e.action}>{actionLabel(e.action)}</td>
                <td>{e.from && e.to ? `${e.from} → ${e.to}` : (e.path ?? '')}</td>
                <td className="num">{e.size === null ? '' : formatBytes(e.size)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor !== null && <button onClick={() => void load(cursor)}>{t('audit.more')}</button>}
    </div>
  );
}
