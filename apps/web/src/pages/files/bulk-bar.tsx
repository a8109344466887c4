import { Fragment, useState } from 'react';
import type { FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { focusOnMount } from '../../components/focus-trap.js';

/**
 * The paths named in a confirmation: all of a few, the first ten of thousands (the count is said beside them).
 *
 * @example
 * pathList(files) // 'a.txt, b.txt, …'
 */
export function pathList(files: FileInfo[]): string {
  const shown = files.slice(0, 10).map((f) => f.path);
  return files.length > shown.length ? `${shown.join(', ')}, …` : shown.join(', ');
}

/**
 * The bar over the table while files are ticked: how many, download them as one zip, move them to a folder typed
 * in (mode 'move'), delete them (mode 'delete', confirmed by the page), or clear the ticks. It stays mounted
 * with nothing ticked, so the folder typed in is kept until a move succeeds.
 *
 * @example
 * <BulkBar files={checkedFiles} canEdit mode={bulk} onMode={setBulk} onMove={(to) => ops.moveEach(paths, to)} onDownload={zip} onClear={clear} />
 */
export function BulkBar(props: {
  files: FileInfo[];
  canEdit: boolean;
  mode: 'move' | 'delete' | null;
  onMode: (mode: 'move' | 'delete' | null) => void;
  /** Moves the ticked files into `to` ('' for the top); answers whether all moved. */
  onMove: (to: string) => Promise<boolean>;
  onDownload: () => void;
  onClear: () => void;
}) {
  const { t } = useI18n();
  const [target, setTarget] = useState('');
  const { files, canEdit, mode, onMode } = props;
  if (files.length === 0) return null;
  return (
    <form
      className="bulk-bar row"
      aria-label={t('files.selected', { n: files.length })}
      onSubmit={(e) => {
        e.preventDefault();
        onMode(null);
        void props.onMove(target.trim().replace(/(?<!\/)\/+$/, '')).then((ok) => ok && setTarget(''));
      }}
    >
      <strong role="status">{t('files.selected', { n: files.length })}</strong>
      {/* Keyed, so the renderer never turns the "Move to folder" button being clicked into the submit button in place. */}
      {mode === 'move' ? (
        <Fragment key="moving">
          <input
            aria-label={t('files.bulkMoveTo')}
            placeholder={t('files.bulkMoveTo')}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            ref={focusOnMount}
          />
          <button type="submit">{t('files.bulkMove')}</button>
          <button type="button" onClick={() => onMode(null)}>
            {t('common.cancel')}
          </button>
        </Fragment>
      ) : (
        <Fragment key="actions">
          <button type="button" onClick={props.onDownload}>
            {t('files.bulkDownload')}
          </button>
          <button type="button" disabled={!canEdit} onClick={() => onMode('move')}>
            {t('files.bulkMove')}
          </button>
          <button type="button" disabled={!canEdit} className="danger" onClick={() => onMode('delete')}>
            {t('files.bulkDelete')}
          </button>
          <button type="button" className="link" onClick={props.onClear}>
            {t('files.clearSelection')}
          </button>
        </Fragment>
      )}
    </form>
  );
}
