import { useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { folderNameProblem } from './new-folder-form.js';
import { focusOnMount } from '../../components/focus-trap.js';

/**
 * "Move folder" (F10 as amended): edit the folder's full path; the whole folder moves with everything in it.
 *
 * @example
 * <MoveFolderForm folder="reports/2026" onMove={move} onCancel={close} onError={fail} />
 */
export function MoveFolderForm(props: { folder: string; onMove: (to: string) => void; onCancel: () => void; onError: (m: string) => void }) {
  const { t } = useI18n();
  const [to, setTo] = useState(props.folder);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const n = to.trim().normalize('NFC');
    if (folderNameProblem(n.replace(/(?<!\/)\/+$/, ''))) return props.onError(t('error.path_invalid'));
    props.onMove(n);
  };
  return (
    <form className="new-folder" onSubmit={submit}>
      <input
        ref={focusOnMount}
        aria-label={t('files.moveFolderTo')}
        title={t('files.moveFolderTo')}
        value={to}
        onChange={(e) => setTo(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      />
      <button type="submit">{t('files.moveFolder')}</button>
      <button type="button" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}
