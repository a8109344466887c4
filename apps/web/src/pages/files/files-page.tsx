import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadFile, downloadZip, filesApi, type FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { formatBytes } from '../../format.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { Icon } from '../../components/icons.js';
import { navigate } from '../../router.js';
import { Breadcrumb } from '../../components/breadcrumb.js';
import { LoadState } from '../../components/load-state.js';
import { useLiveChanges } from '../../live-changes.js';
import { FolderTree } from './folder-tree.js';
import { FileGrid, useFilesView } from './file-grid.js';
import { FileTable, sortFiles } from './file-table.js';
import { PreviewPanel } from './preview-panel.js';
import { NewFolderForm } from './new-folder-form.js';
import { MoveFolderForm } from './move-folder-form.js';
import { UploadQueuePanel, useUploads } from './upload-queue.js';
import { useDropTargets } from './drag-move.js';
import { folderHref, useFolderRoute } from './folder-route.js';
import { useFolderListing } from './folder-listing.js';
import { useFileSearch } from './file-search.js';
import { usePreview } from './preview-state.js';
import { NoticeLine, useNotice } from './notice.js';
import { useFolderDrawer } from './folder-drawer.js';
import { useUploadDropZone } from './upload-controls.js';
import { FilesToolbar } from './files-toolbar.js';
import { useFolderActions } from './folder-actions.js';
import { useFileOperations } from './file-operations.js';
import { BulkBar, pathList } from './bulk-bar.js';
import { MoveDialog } from './move-dialog.js';
import { PersonalList, PersonalViewLinks, type PersonalView } from './personal-lists.js';
import { StarButton } from '../../components/star-button.js';
import { useRoute } from '../../router.js';
import { useFileListKeys } from './list-keys.js';
import { usePageAction } from '../../commands.js';

/**
 * The Files page (F4–F14): usage header, folder tree, the selected folder's table, name search over the whole
 * storage, upload, new folders (stored, F9 as amended), rename/move, delete, preview with versions.
 *
 * @example
 * {route.page === 'files' && <FilesPage />}
 */
export function FilesPage() {
  const { t } = useI18n();
  const [layout, setLayout] = useFilesView();
  const { project, canEdit } = useSession();
  const pid = project.id;
  const { folder, sort, setFolder, setSort } = useFolderRoute();
  const { notice, say, fail, clear } = useNotice();
  const [epoch, setEpoch] = useState(0);
  const refresh = () => setEpoch((n) => n + 1);
  // Someone else's change (a colleague, an agent, WebDAV) reloads the tree and the folder on screen (B7).
  useLiveChanges(pid, refresh);
  const { page, current, subfolders, allFolders, usage, loadError, complete, whole } = useFolderListing(pid, folder, epoch, setFolder);
  const { query, setQuery, results } = useFileSearch(pid, epoch, fail);
  const searching = results !== null;
  const [preview, setPreview] = usePreview(pid, folder, page, fail);
  // The person's Favourites or Recent, shown in place of the folder (/files?view=favourites).
  const wantedView = new URLSearchParams(useRoute().search).get('view');
  const view: PersonalView | null = wantedView === 'favourites' || wantedView === 'recent' ? wantedView : null;
  // Files ticked for a bulk move or delete; a new folder or search starts with none.
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<'move' | 'delete' | null>(null);
  // Bumped by every click on "select all", so a late answer to an earlier click does not undo a later one.
  const checkAllAsked = useRef(0);
  // "Select all" asked while later pages are still coming: the box shows ticked until they are all in and ticked.
  const [selectingAll, setSelectingAll] = useState(false);
  const [toDelete, setToDelete] = useState<FileInfo | null>(null);
  const [toMove, setToMove] = useState<FileInfo | null>(null);
  // The file whose preview was just closed: its name gets focus back once its row is drawn.
  const [focusPath, setFocusPath] = useState<string | null>(null);
  const drawer = useFolderDrawer();
  // Uploads run in a queue beside the page: the listing reloads as files land, and folders can change meanwhile.
  const uploads = useUploads({
    onDone: useCallback(() => setEpoch((n) => n + 1), []),
    onIdle: useCallback((n: number) => say(t('files.uploaded', { n })), [say, t]),
  });
  const drop = useUploadDropZone(canEdit, (items) => uploadInto(items, folder));

  const select = (p: string) => {
    setQuery('');
    setFolder(p);
  };
  const clearChecked = () => setChecked(new Set());
  const ops = useFileOperations({ pid, preview, setPreview, clearChecked, say, fail, refresh });
  const folders = useFolderActions({ pid, folder, select, refresh, say, fail, closePreview: () => setPreview(null) });
  useFileListKeys({
    renameLabel: t('files.rename'),
    onClear: () => {
      setQuery('');
      clearChecked();
    },
  });
  // The command palette's Upload and New folder (issue 31).
  usePageAction('upload', () => document.querySelector<HTMLInputElement>('[data-testid="upload-input"]')?.click());
  usePageAction('newFolder', () => folders.setShowNew(true));

  // Stable row actions (the rows are memoised); they call the newest handlers through a ref.
  const uploadInto = (items: DataTransferItemList, dest: string) => {
    clear();
    void uploads.addDrop(pid, dest, items).catch(fail);
  };
  const latest = useRef({ select, ops, checked, uploadInto });
  latest.current = { select, ops, checked, uploadInto };
  // Folders take dropped rows only where a move can happen: an editor, browsing (not search results).
  const dropTarget = useDropTargets(
    useMemo(
      () => (canEdit && query.trim() === '' ? (paths: string[], dest: string) => void latest.current.ops.moveDropped(paths, dest) : null),
      [canEdit, query],
    ),
    // Files and folders from the desktop dropped on a folder upload into that folder, not the open one.
    useCallback((items: DataTransferItemList, dest: string) => latest.current.uploadInto(items, dest), []),
  );
  const actions = useMemo(
    () => ({
      canEdit,
      onCheck: (f: FileInfo, on: boolean) => {
        checkAllAsked.current++;
        setSelectingAll(false);
        setChecked((s) => {
          const n = new Set(s);
          if (on) n.add(f.path);
          else n.delete(f.path);
          return n;
        });
      },
      onOpen: setPreview,
      onDelete: setToDelete,
      onFolder: (p: string) => latest.current.select(p),
      onRename: (f: FileInfo, name: string) => latest.current.ops.rename(f, name),
      onMoveTo: setToMove,
      onDownload: (f: FileInfo) => void downloadFile(pid, f.path, f.name).catch(fail),
      dragPaths: (f: FileInfo) => (latest.current.checked.has(f.path) ? [...latest.current.checked] : [f.path]),
      onFocused: () => setFocusPath(null),
    }),
    [canEdit, pid, fail],
  );

  const shownFiles = useMemo(() => sortFiles(searching ? results.files : (current?.files ?? []), sort), [searching, results, current, sort]);
  useEffect(() => {
    setChecked(new Set());
    setSelectingAll(false);
    setFocusPath(null);
  }, [folder, searching, pid]);
  const checkedFiles = shownFiles.filter((f) => checked.has(f.path));
  const checkedPaths = () => checkedFiles.map((f) => f.path);

  const reopenPreview = async () => {
    if (!preview) return;
    try {
      setPreview(await filesApi.stat(pid, preview.path));
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <div className="files-page">
      <div className="page-head">
        <h1>{t('files.title')}</h1>
        <PersonalViewLinks view={view} />
        {usage && (
          <p className="usage" data-used={usage.used} data-quota={usage.quota}>
            {t('files.usage', { used: formatBytes(usage.used), quota: formatBytes(usage.quota) })}
          </p>
        )}
        <a
          className="trash-link"
          href="/trash"
          onClick={(e) => {
            e.preventDefault();
            navigate('/trash');
          }}
        >
          <Icon name="trash" /> {t('trash.open')}
        </a>
      </div>
      <div className={`files-layout${preview ? ' previewing' : ''}`}>
        {drawer.open && <div className="drawer-back" onClick={drawer.dismiss} />}
        <FolderTree
          id="folder-tree"
          className={drawer.open ? 'open' : ''}
          folders={allFolders}
          selected={searching ? '\u0000' : folder}
          dropTarget={dropTarget}
          onSelect={(p) => {
            if (drawer.open) drawer.closeToButton();
            select(p);
          }}
        />
        <section className={`files-main${drop.dragging ? ' dragging' : ''}`} {...drop.handlers}>
          {!searching && !view && (
            <div className="crumb-row">
              <Breadcrumb label={t('files.breadcrumb')} root={t('files.root')} path={folder} href={folderHref} onOpen={select} dropTarget={dropTarget} />
              {folder && <StarButton project={pid} kind="folder" path={folder} onError={fail} />}
            </div>
          )}
          <FilesToolbar
            drawer={drawer}
            query={query}
            onQuery={setQuery}
            canEdit={canEdit}
            folder={folder}
            searching={searching}
            onPick={(list) => {
              clear();
              uploads.addFiles(pid, folder, list);
            }}
            onNewFolder={() => folders.setShowNew(true)}
            onDownloadFolder={() => void downloadZip(pid, { folder }, `${folder.split('/').pop() || project.name}.zip`).catch(fail)}
            onFolderAction={folders.setAction}
          />
          <div className="view-toggle" role="group" aria-label={t('files.view')}>
            <button type="button" aria-pressed={layout === 'list'} onClick={() => setLayout('list')}>
              {t('files.viewList')}
            </button>
            <button type="button" aria-pressed={layout === 'grid'} onClick={() => setLayout('grid')}>
              {t('files.viewGrid')}
            </button>
          </div>
          {folders.action === 'move' && (
            <MoveFolderForm folder={folder} onMove={(to) => void folders.move(to)} onCancel={() => folders.setAction(null)} onError={fail} />
          )}
          {folders.showNew && (
            <NewFolderForm parent={folder} onCancel={() => folders.setShowNew(false)} onCreate={(p) => void folders.create(p)} onError={fail} />
          )}
          {!canEdit && <p className="hint">{t('files.viewerHint')}</p>}
          <UploadQueuePanel items={uploads.items} />
          <NoticeLine notice={notice} onClose={clear} />
          {searching && <h2 className="results-title">{t('files.searchResults', { q: results.q })}</h2>}
          {searching && results.truncated && <p className="notice warn">{t('files.searchTruncated', { n: results.files.length })}</p>}
          {!searching && complete && current?.nextCursor && (
            <p className="notice warn" role="alert">
              {t('files.tooMany', { shown: current.files.length, total: current.total })}
            </p>
          )}
          <BulkBar
            files={checkedFiles}
            canEdit={canEdit}
            mode={bulk}
            onMode={setBulk}
            onMove={(to) => ops.moveEach(checkedPaths(), to)}
            onDownload={() => void downloadZip(pid, { paths: checkedPaths() }, `${project.name}.zip`).catch(fail)}
            onClear={clearChecked}
          />
          {view && !searching ? (
            <PersonalList project={pid} view={view} onError={fail} />
          ) : !searching && !current ? (
            <LoadState error={loadError} onRetry={refresh} />
          ) : layout === 'grid' ? (
            <FileGrid
              project={pid}
              folders={searching ? [] : subfolders}
              files={shownFiles}
              selectedPath={preview?.path ?? null}
              onFolder={actions.onFolder}
              onOpen={actions.onOpen}
            />
          ) : (
            <FileTable
              folders={searching ? [] : subfolders}
              files={shownFiles}
              showPaths={searching}
              selectedPath={preview?.path ?? null}
              focusPath={focusPath}
              checked={checked}
              selectingAll={selectingAll}
              onCheckAll={(on) => {
                const asked = ++checkAllAsked.current;
                setChecked(on ? new Set(shownFiles.map((f) => f.path)) : new Set());
                // "Select all" is every file of the folder: the rows loaded now at once, those of the pages still
                // on their way as they come (unless the choice changed meanwhile).
                const pending = on && !searching && !complete;
                setSelectingAll(pending);
                if (pending)
                  void whole()
                    .then((files) => asked === checkAllAsked.current && setChecked(new Set(files.map((f) => f.path))))
                    .finally(() => asked === checkAllAsked.current && setSelectingAll(false));
              }}
              total={searching ? undefined : current?.total}
              sort={sort}
              onSort={setSort}
              actions={actions}
              dropTarget={dropTarget}
            />
          )}
          {searching && results.files.length === 0 && <p className="empty">{t('files.noMatches')}</p>}
          {!searching && !view && current && shownFiles.length === 0 && subfolders.length === 0 && <p className="empty">{t('files.empty')}</p>}
        </section>
        {preview && (
          <PreviewPanel
            project={pid}
            file={preview}
            canEdit={canEdit}
            onClose={() => {
              setFocusPath(preview.path);
              setPreview(null);
            }}
            onChanged={reopenPreview}
            onError={fail}
          />
        )}
      </div>
      {folders.action === 'delete' && (
        <ConfirmDialog
          message={t('files.deleteFolderConfirm', { path: folder })}
          confirmLabel={t('files.deleteFolder')}
          onConfirm={() => void folders.remove()}
          onCancel={() => folders.setAction(null)}
        />
      )}
      {bulk === 'delete' && (
        <ConfirmDialog
          message={t('files.bulkDeleteConfirm', { n: checkedFiles.length, paths: pathList(checkedFiles) })}
          confirmLabel={t('files.bulkDelete')}
          onConfirm={() => {
            setBulk(null);
            void ops.removeEach(checkedPaths());
          }}
          onCancel={() => setBulk(null)}
        />
      )}
      {toMove && <MoveDialog file={toMove} folders={allFolders} onMove={(dest) => ops.moveInto(toMove, dest)} onCancel={() => setToMove(null)} />}
      {toDelete && (
        <ConfirmDialog
          message={t('files.deleteConfirm', { path: toDelete.path })}
          confirmLabel={t('files.delete')}
          onConfirm={() => {
            setToDelete(null);
            void ops.remove(toDelete);
          }}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
