import { useCallback, useEffect, useState } from 'react';
import { filesApi, type AuditPage as AuditData } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { useSession } from '../session.js';
import { errorText, formatBytes, formatDate } from '../format.js';

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
  const [entries, setEntries] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (before: number | null) => {
      try {
        const r = await filesApi.audit(project.id, before);
        setEntries((l) => (before === null ? r.entries : [...l, ...r.entries]));
        setCursor(r.nextCursor);
        setLoaded(true);
      } catch (e) {
        setError(errorText(e, t));
      }
    },
    [project.id, t],
  );

  useEffect(() => {
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
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {!loaded && !error && <p>{t('common.loading')}</p>}
      {loaded && entries.length === 0 && <p className="empty">{t('common.none')}</p>}
      {entries.length > 0 && (
        <table className="grid audit">
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
