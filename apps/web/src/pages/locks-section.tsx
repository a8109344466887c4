import { useCallback, useEffect, useState } from 'react';
import { filesApi, type LockInfo } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { GridHead } from '../components/grid-head.js';

/**
 * The project's live WebDAV locks (issue 26): every member sees which file is locked and by whom; its holder and
 * the project's admins release it here, so a forgotten lock of a desktop client never blocks the team for hours.
 *
 * @example
 * <LocksSection />
 */
export function LocksSection() {
  const { t, lang } = useI18n();
  const { project, isAdmin } = useSession();
  const [locks, setLocks] = useState<LockInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(
    () =>
      filesApi.locks(project.id).then(
        (l) => {
          setLocks(l);
          setError(null);
        },
        (e: unknown) => setError(errorText(e, t)),
      ),
    [project.id, t],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  const release = (l: LockInfo) =>
    filesApi.releaseLock(project.id, l.token).then(reload, (e: unknown) => {
      setError(errorText(e, t));
      void reload();
    });

  return (
    <section className="card locks" aria-labelledby="locks-title">
      <h2 id="locks-title">{t('locks.title')}</h2>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {locks !== null && locks.length === 0 && <p>{t('locks.none')}</p>}
      {locks !== null && locks.length > 0 && (
        <table className="grid">
          <GridHead columns={[t('locks.path'), t('locks.holder'), t('locks.expires')]} />
          <tbody>
            {locks.map((l) => (
              <tr key={l.token} data-lock={l.path}>
                <td>
                  {l.path === '' ? '/' : l.path}
                  {l.depth === 'infinity' ? ` ${t('locks.andBelow')}` : ''}
                </td>
                <td>{l.holder.name ?? l.holder.id}</td>
                <td>{formatDate(l.expiresAt, lang)}</td>
                <td>
                  <button disabled={!(isAdmin || l.mine)} onClick={() => void release(l)} aria-label={t('locks.releaseOf', { name: l.path || '/' })}>
                    {t('locks.release')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
