import { useRef, useState } from 'react';
import type { FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { useFocusTrap } from '../../components/focus-trap.js';

/** The existing folders offered as a path field's choices (a folder picker that still takes a new path typed in). */
function FolderChoices(props: { id: string; folders: readonly string[] }) {
  return (
    <datalist id={props.id}>
      {props.folders.map((f) => (
        <option key={f} value={f} />
      ))}
    </datalist>
  );
}

/**
 * "Move to…" for one file: pick a folder (or type a new one; empty is the top), and the file goes there with its
 * name. Renaming is a separate action and never moves a file.
 *
 * @example
 * <MoveDialog file={f} folders={allFolders} onMove={(dest) => ops.moveInto(f, dest)} onCancel={close} />
 */
export function MoveDialog(props: { file: FileInfo; folders: readonly string[]; onMove: (dest: string) => Promise<boolean>; onCancel: () => void }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onCancel);
  const here = props.file.path.slice(0, Math.max(0, props.file.path.lastIndexOf('/')));
  const [dest, setDest] = useState(here);
  const [busy, setBusy] = useState(false);
  return (
    <div className="modal-back">
      <div ref={box} className="modal move-dialog" role="dialog" aria-modal="true" aria-labelledby="move-dialog-title">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const to = dest.trim().replace(/^\/+|(?<!\/)\/+$/g, '');
            if (to === here) return props.onCancel();
            setBusy(true);
            void props.onMove(to).then((ok) => (ok ? props.onCancel() : setBusy(false)));
          }}
        >
          <h2 id="move-dialog-title">{t('files.moveTitle', { name: props.file.name })}</h2>
          <label>
            {t('files.bulkMoveTo')}
            <input list="move-dialog-folders" value={dest} onChange={(e) => setDest(e.target.value)} />
          </label>
          <FolderChoices id="move-dialog-folders" folders={props.folders} />
          <div className="modal-actions">
            <button type="submit" disabled={busy}>
              {t('files.move')}
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
