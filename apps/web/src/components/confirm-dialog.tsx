import { useRef } from 'react';
import { useI18n } from '../i18n/index.js';
import { useFocusTrap } from './focus-trap.js';

/**
 * A modal confirmation (delete, F13). Focus starts on the confirm button and stays in the dialog; Enter confirms
 * only when that button has focus; Escape cancels; focus goes back to what opened it.
 *
 * @example
 * <ConfirmDialog message="Delete a.md?" confirmLabel="Delete" onConfirm={del} onCancel={close} />
 */
export function ConfirmDialog(props: { message: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onCancel);
  return (
    <div className="modal-back">
      <div ref={box} className="modal" role="dialog" aria-modal="true" aria-label={props.confirmLabel}>
        <p>{props.message}</p>
        <div className="modal-actions">
          <button className="danger" onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
          <button onClick={props.onCancel}>{t('common.cancel')}</button>
        </div>
      </div>
    </div>
  );
}
