import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n/index.js';

/**
 * A modal confirmation (delete, F13). Enter confirms only when the confirm button has focus; Escape cancels.
 *
 * @example
 * <ConfirmDialog message="Delete a.md?" confirmLabel="Delete" onConfirm={del} onCancel={close} />
 */
export function ConfirmDialog(props: { message: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="modal-back" onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}>
      <div className="modal" role="dialog" aria-modal="true" aria-label={props.confirmLabel}>
        <p>{props.message}</p>
        <div className="modal-actions">
          <button ref={ref} className="danger" onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
          <button onClick={props.onCancel}>{t('common.cancel')}</button>
        </div>
      </div>
    </div>
  );
}
