import { useI18n } from '../i18n/index.js';

/**
 * What a page shows in place of data it does not have yet: grey placeholder lines while it loads (aria-busy,
 * announced as loading), or, when loading failed, the error in words with a Retry button. `error` is already
 * translated (errorText), never the server's own text.
 *
 * @example
 * if (!entries) return <LoadState error={error} onRetry={reload} />;
 */
export function LoadState({ error, onRetry, lines = 5 }: { error: string | null; onRetry: () => void; lines?: number }) {
  const { t } = useI18n();
  if (error)
    return (
      <div className="load-failed notice error" role="alert">
        <span>{error}</span>{' '}
        <button type="button" onClick={onRetry}>
          {t('load.retry')}
        </button>
      </div>
    );
  return (
    <div className="skeleton" role="status" aria-busy="true" aria-label={t('common.loading')}>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton-line" />
      ))}
    </div>
  );
}
