import { useRef, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import { useFocusTrap } from './focus-trap.js';

/**
 * Deleting a whole project (F13): the button stays disabled until the user has typed the project's exact name,
 * so a stray click or Enter cannot destroy it. Escape cancels.
 *
 * @example
 * <DeleteProjectDialog name="acme" onConfirm={del} onCancel={close} />
 */
export function DeleteProjectDialog(props: { name: string; busy: boolean; onConfirm: (typed: string) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onCancel);
  const matches = typed === props.name;
  return (
    <div className="modal-back">
      {/* The dialog role on a div around the form: a form element may not take it (axe: aria-allowed-role). */}
      <div ref={box} className="modal" role="dialog" aria-modal="true" aria-label={t('project.delete')}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (matches && !props.busy) props.onConfirm(typed);
          }}
        >
          <p>{t('project.deleteWarning', { name: props.name })}</p>
          <label>
            {t('project.deleteTypeName', { name: props.name })}
            <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <div className="modal-actions">
            <button type="submit" className="danger" disabled={!matches || props.busy}>
              {t('project.delete')}
            </button>
            <button type="button" onClick={props.onCancel}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
