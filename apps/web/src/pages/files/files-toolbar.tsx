import { useI18n } from '../../i18n/index.js';
import { Icon } from '../../components/icons.js';
import { UploadButtons } from './upload-controls.js';

/**
 * The toolbar of the Files page: the folders drawer button (phones), the name search, upload of files and of a
 * folder, a new folder, and, while browsing (not searching), the open folder as a zip; below the top also
 * moving or deleting the open folder.
 *
 * @example
 * <FilesToolbar drawer={drawer} query={query} onQuery={setQuery} canEdit folder="reports" searching={false} … />
 */
export function FilesToolbar(props: {
  drawer: { open: boolean; button: React.RefObject<HTMLButtonElement | null>; toggle: () => void };
  query: string;
  onQuery: (q: string) => void;
  canEdit: boolean;
  folder: string;
  searching: boolean;
  onPick: (list: FileList | null) => void;
  onNewFolder: () => void;
  onDownloadFolder: () => void;
  onFolderAction: (action: 'move' | 'delete') => void;
}) {
  const { t } = useI18n();
  const { drawer, canEdit, folder, searching } = props;
  return (
    <div className="toolbar">
      <button ref={drawer.button} className="drawer-toggle" aria-expanded={drawer.open} aria-controls="folder-tree" onClick={drawer.toggle}>
        <Icon name="folder" /> {t('files.folders')}
      </button>
      <input
        type="search"
        className="file-search"
        placeholder={t('files.search')}
        aria-label={t('files.search')}
        value={props.query}
        onChange={(e) => props.onQuery(e.target.value)}
      />
      <span className="spacer" />
      <UploadButtons disabled={!canEdit} onPick={props.onPick} />
      <button disabled={!canEdit} onClick={props.onNewFolder}>
        <Icon name="plus" /> {t('files.newFolder')}
      </button>
      {!searching && (
        <button onClick={props.onDownloadFolder}>
          <Icon name="download" /> {t('files.downloadFolder')}
        </button>
      )}
      {folder !== '' && !searching && (
        <button disabled={!canEdit} onClick={() => props.onFolderAction('move')}>
          {t('files.moveFolder')}
        </button>
      )}
      {folder !== '' && !searching && (
        <button disabled={!canEdit} onClick={() => props.onFolderAction('delete')}>
          {t('files.deleteFolder')}
        </button>
      )}
    </div>
  );
}
