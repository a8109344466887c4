import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/index.js';

/**
 * Whether the browser says it is offline now, kept current.
 *
 * @example
 * const offline = useOffline();
 */
export function useOffline(): boolean {
  const [offline, setOffline] = useState(() => !navigator.onLine);
  useEffect(() => {
    const on = () => setOffline(false);
    const off = () => setOffline(true);
    addEventListener('online', on);
    addEventListener('offline', off);
    return () => {
      removeEventListener('online', on);
      removeEventListener('offline', off);
    };
  }, []);
  return offline;
}

/**
 * "You are offline" with Retry, which loads the data again; when the network comes back, that happens by
 * itself.
 *
 * @example
 * {offline && <OfflineNotice onRetry={reload} />}
 */
export function OfflineNotice(props: { onRetry: () => void }) {
  const { t } = useI18n();
  const { onRetry } = props;
  useEffect(() => {
    addEventListener('online', onRetry);
    return () => removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <div className="notice warn offline-notice" role="alert">
      <strong>{t('offline.title')}</strong> <span>{t('offline.text')}</span>{' '}
      <button type="button" onClick={onRetry}>
        {t('load.retry')}
      </button>
    </div>
  );
}
