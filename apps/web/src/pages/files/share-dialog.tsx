import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { absoluteLink, sharesApi, type NewShareLink, type ShareLink } from '../../api/shares.js';
import type { FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatDate } from '../../format.js';
import { useFocusTrap } from '../../components/focus-trap.js';
import { CopyButton } from '../../components/copy-button.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** The server's longest (SHARE_LINK_MAX_SECONDS in the contract). */
const MAX_DAYS = 30;
type Choice = 'hour' | 'day' | 'week' | 'custom';
const SECONDS: Record<Exclude<Choice, 'custom'>, number> = { hour: HOUR, day: DAY, week: 7 * DAY };

/** A date input's value (local time) some days from now. */
function dayFromNow(days: number): string {
  const d = new Date(Date.now() + days * DAY * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * "Share link…" for one file (issue 31): choose how long the link stays open (an hour, a day, a week, or until a
 * date), make it, copy it; the file's links that still open are listed with a Revoke button. Anyone holding a
 * link downloads the file without signing in until it expires or is revoked.
 *
 * @example
 * <ShareDialog project="default" file={file} canEdit onClose={close} />
 */
export function ShareDialog(props: { project: string; file: FileInfo; canEdit: boolean; onClose: () => void }) {
  const { t, lang } = useI18n();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onClose);
  const [choice, setChoice] = useState<Choice>('day');
  const [until, setUntil] = useState(dayFromNow(14));
  const [made, setMade] = useState<NewShareLink | null>(null);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { project, file } = props;

  const load = useCallback(
    () =>
      sharesApi.list(project, file.path).then(setLinks, (e: unknown) => {
        setLinks([]);
        setError(errorText(e, t));
      }),
    [project, file.path, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    // A custom date runs to the end of that day, local time.
    const seconds = choice === 'custom' ? Math.floor((new Date(`${until}T23:59:59`).getTime() - Date.now()) / 1000) : SECONDS[choice];
    if (!(seconds >= 60 && seconds <= MAX_DAYS * DAY)) return setError(t('share.badDate', { n: MAX_DAYS }));
    try {
      setMade(await sharesApi.create(project, file.path, seconds));
      await load();
    } catch (err) {
      setError(errorText(err, t));
    }
  };
  const revoke = async (linkId: string) => {
    try {
      await sharesApi.revoke(project, linkId);
      if (made?.id === linkId) setMade(null);
      await load();
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  return (
    <div className="modal-back">
      <div ref={box} className="modal share-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('share.title', { name: file.name })}</h2>
        <p className="muted">{t('share.hint')}</p>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        {props.canEdit ? (
          <form onSubmit={(e) => void create(e)}>
            <fieldset className="share-expiry">
              <legend>{t('share.expiry')}</legend>
              {(['hour', 'day', 'week', 'custom'] as const).map((c) => (
                <label key={c}>
                  <input type="radio" name={`${id}-expiry`} checked={choice === c} onChange={() => setChoice(c)} /> {t(`share.${c}`)}
                </label>
              ))}
              {choice === 'custom' && (
                <label>
                  {t('share.until')}{' '}
                  <input type="date" value={until} min={dayFromNow(0)} max={dayFromNow(MAX_DAYS - 1)} onChange={(e) => setUntil(e.target.value)} required />
                </label>
              )}
            </fieldset>
            <button type="submit">{t('share.create')}</button>
          </form>
        ) : (
          <p>{t('share.viewerHint')}</p>
        )}
        {made && (
          <div className="share-made" role="status">
            <p>{t('share.made', { date: formatDate(made.expiresAt, lang) })}</p>
            <div className="row">
              <input readOnly value={absoluteLink(made.url)} aria-label={t('share.link')} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton value={absoluteLink(made.url)} />
            </div>
          </div>
        )}
        <h3>{t('share.active')}</h3>
        {links === null ? (
          <p>{t('common.loading')}</p>
        ) : links.length === 0 ? (
          <p className="muted">{t('share.none')}</p>
        ) : (
          <ul className="share-links">
            {links.map((l) => (
              <li key={l.id} data-link={l.id}>
                {t('share.row', { who: l.createdBy, date: formatDate(l.expiresAt, lang) })}{' '}
                {props.canEdit && (
                  <button type="button" className="danger" onClick={() => void revoke(l.id)}>
                    {t('share.revoke')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="modal-actions">
          <button type="button" onClick={props.onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </div>
  );
}
