import { useCallback, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { Icon } from '../../components/icons.js';

type Notice = { kind: 'error' | 'info'; text: string } | null;

/**
 * The one-line notice of the Files page: what just happened, or what went wrong in the user's language.
 * `fail` takes an error (translated from its code) or a sentence already made.
 *
 * @example
 * const { notice, say, fail, clear } = useNotice();
 * filesApi.remove(pid, path).then(() => say(t('files.deleted', { path })), fail);
 */
export function useNotice() {
  const { t } = useI18n();
  const [notice, setNotice] = useState<Notice>(null);
  const fail = useCallback((e: unknown) => setNotice({ kind: 'error', text: typeof e === 'string' ? e : errorText(e, t) }), [t]);
  const say = useCallback((text: string) => setNotice({ kind: 'info', text }), []);
  const clear = useCallback(() => setNotice(null), []);
  return { notice, say, fail, clear };
}

/**
 * The notice on screen, with a button to close it (an error is an alert, the rest a status).
 *
 * @example
 * <NoticeLine notice={notice} onClose={clear} />
 */
export function NoticeLine({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  const { t } = useI18n();
  if (!notice) return null;
  return (
    <p className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}{' '}
      <button className="link" aria-label={t('common.close')} onClick={onClose}>
        <Icon name="close" />
      </button>
    </p>
  );
}
