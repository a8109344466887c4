import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadFile, downloadZip, filesApi, type FileInfo, type Folder, type FolderPage, type Usage } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { errorText, formatBytes } from '../../format.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { FolderTree } from './folder-tree.js';
import { FileTable, sortFiles, type Sort, type SortKey } from './file-table.js';
import { PreviewPanel } from './preview-panel.js';
import { NewFolderForm } from './new-folder-form.js';
import { MoveFolderForm } from './move-folder-form.js';
import { Icon } from '../../components/icons.js';
import { navigate, useRoute } from '../../router.js';
import { Breadcrumb } from '../../components/breadcrumb.js';
import { LoadState } from '../../components/load-state.js';
import { useLiveChanges } from '../../live-changes.js';
import { UploadQueuePanel, useUploads } from './upload-queue.js';
import { useDropTargets } from './drag-move.js';

type Notice = { kind: 'error' | 'info'; text: string } | null;
const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The paths named in a confirmation: all of a few, the first ten of thousands (the count is said beside them). */
function pathList(files: FileInfo[]): string {
  const shown = files.slice(0, 10).map((f) => f.path);
  return files.length > shown.length ? `${shown.join(', ')}, …` : shown.join(', ');
}

/**
 * The Files page (F4–F14): usage header, folder tree, the selected folder's table, name search over the whole
 * storage, upload, new folders (stored, F9 as amended), rename/move, delete, preview with versions.
 *
 * @example
 * {route.page === 'files' && <FilesPage />}
 */
export function FilesPage() {
  const { t } = useI18n();
  const { project, canEdit } = useSession();
  const pid = project.id;
  // The open folder is the URL (/files/reports/2026): a deep link opens it, Back and Forward walk it, a reload stays.
  const route = useRoute();
  const folder = route.page === 'files' ? route.rest : '';
  // The order of the table is in the URL too (?sort=size&dir=desc), and stays while folders change.
  const sort = useMemo<Sort>(() => {
    const q = new URLSearchParams(route.search);
    const key = q.get('sort');
    return { key: key === 'size' || key === 'modified' ? (key as SortKey) : 'name', dir: q.get('dir') === 'desc' ? 'desc' : 'asc' };
  }, [route.search]);
  const sortQuery = sort.key === 'name' && sort.dir === 'asc' ? '' : `?sort=${sort.key}&dir=${sort.dir}`;
  const setFolder = useCallback(
    (p: string, replace = false) => navigate(`${p ? `/files/${p.split('/').map(encodeURIComponent).join('/')}` : '/files'}${sortQuery}`, replace),
    [sortQuery],
  );
  const setSort = (s: Sort) => navigate(`${location.pathname}${s.key === 'name' && s.dir === 'asc' ? '' : `?sort=${s.key}&dir=${s.dir}`}`);
  // Files ticked for a bulk move or delete; a new folder or search starts with none.
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<'move' | 'delete' | null>(null);
  const [bulkTarget, setBulkTarget] = useState('');
  const [serverFolders, setServerFolders] = useState<Folder[]>([]);
  const [page, setPage] = useState<FolderPage | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ q: string; files: FileInfo[]; truncated: boolean } | null>(null);
  const [preview, setPreview] = useState<FileInfo | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [toDelete, setToDelete] = useState<FileInfo | null>(null);
  const [showNewFolder, setShowNewFolder] = useState(false);
  const [folderAction, setFolderAction] = useState<'move' | 'delete' | null>(null);
  const [epoch, setEpoch] = useState(0);
  // The folder that the tree and page on screen were loaded for: until the next load lands they may not know a
  // folder just created or opened.
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  // Loading the open folder failed: said in place of the table, with Retry.
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // Phones: the tree is a drawer over the page, opened by a button in the toolbar.
  const [drawer, setDrawer] = useState(false);
  const drawerButton = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const fail = useCallback((e: unknown) => setNotice({ kind: 'error', text: typeof e === 'string' ? e : errorText(e, t) }), [t]);
  const refresh = () => setEpoch((n) => n + 1);
  // Someone else's change (a colleague, an agent, WebDAV) reloads the tree and the folder on screen (B7).
  useLiveChanges(pid, refresh);
  // Uploads run in a queue beside the page: the listing reloads as files land, and folders can change meanwhile.
  const uploads = useUploads({
    onDone: useCallback(() => setEpoch((n) => n + 1), []),
    onIdle: useCallback((n: number) => setNotice({ kind: 'info', text: t('files.uploaded', { n }) }), [t]),
  });

  // A link to one file (/files?path=…, e.g. from search) opens its folder and its preview.
  useEffect(() => {
    const linked = new URLSearchParams(location.search).get('path');
    if (!linked) return;
    filesApi.stat(pid, linked).then((f) => {
      setFolder(parentOf(f.path), true);
      setPreview(f);
    }, fail);
  }, [pid, fail]);

  useEffect(() => {
    let gone = false;
    Promise.all([filesApi.tree(pid), filesApi.folder(pid, folder), filesApi.usage(pid)]).then(
      ([tree, pg, u]) => {
        if (gone) return;
        setServerFolders(tree);
        setPage(pg);
        setUsage(u);
        setLoadedFor(folder);
        setLoadError(null);
      },
      (e: unknown) => !gone && setLoadError(errorText(e, t)),
    );
    return () => {
      gone = true;
    };
  }, [pid, folder, epoch, t]);

  useEffect(() => {
    const q = query.trim();
    if (!q) return setResults(null);
    let gone = false;
    const timer = setTimeout(() => {
      filesApi.find(pid, q).then((r) => !gone && setResults({ q, ...r }), fail);
    }, 200);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [pid, query, epoch, fail]);

  // The file shown in the preview changed (an upload, a colleague, an agent): show what the listing now says.
  useEffect(() => {
    const now = page?.files.find((f) => f.path === preview?.path);
    if (now && preview && now.version !== preview.version) setPreview(now);
  }, [page]);

  const allFolders = useMemo(() => serverFolders.map((f) => f.path), [serverFolders]);
  // Until the open folder's own answer is in, its rows are not known: placeholders, never the last folder's rows.
  const current = page && loadedFor === folder ? page : null;
  const subfolders = useMemo(() => [...(current?.folders ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [current]);

  // A folder implied by its files vanishes with its last file (F2), and another client may delete or move a
  // folder: when that happens to the selected one, climb to a folder that exists.
  useEffect(() => {
    if (!page || folder === '' || loadedFor !== folder) return;
    const exists = (p: string) => serverFolders.some((f) => f.path === p);
    if (exists(folder)) return;
    let up = parentOf(folder);
    while (up !== '' && !exists(up)) up = parentOf(up);
    setFolder(up, true);
  }, [page, serverFolders, folder, loadedFor, setFolder]);

  const select = (p: string) => {
    setQuery('');
    setFolder(p);
  };

  useEffect(() => {
    if (!drawer) return;
    document.querySelector<HTMLElement>('#folder-tree [role="treeitem"][tabindex="0"]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // First in line (capture): Escape closes the drawer, not the preview behind it.
      e.preventDefault();
      e.stopPropagation();
      setDrawer(false);
      drawerButton.current?.focus();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [drawer]);

  const upload = (list: FileList | null, from: HTMLInputElement | null) => {
    setNotice(null);
    uploads.addFiles(pid, folder, list);
    // The same files can be picked again (a retry from the picker).
    if (from) from.value = '';
  };

  const move = async (f: FileInfo, to: string) => {
    try {
      const moved = await filesApi.move(pid, f.path, to);
      setNotice({ kind: 'info', text: t('files.moved', { path: moved.path }) });
      if (preview?.path === f.path) setPreview(moved);
      refresh();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };

  const remove = async (f: FileInfo) => {
    setToDelete(null);
    try {
      await filesApi.remove(pid, f.path);
      setNotice({ kind: 'info', text: t('files.deleted', { path: f.path }) });
      if (preview?.path === f.path) setPreview(null);
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  // Whole-folder move and delete (F10, F13 as amended): metadata only on the server, one step here.
  const moveSelectedFolder = async (to: string) => {
    try {
      const moved = await filesApi.moveFolder(pid, folder, to);
      setFolderAction(null);
      setNotice({ kind: 'info', text: t('files.moved', { path: moved.path }) });
      setPreview(null);
      select(moved.path);
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  const deleteSelectedFolder = async () => {
    setFolderAction(null);
    try {
      await filesApi.removeFolder(pid, folder);
      setNotice({ kind: 'info', text: t('files.deleted', { path: folder }) });
      setPreview(null);
      select(parentOf(folder));
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  const reopenPreview = async () => {
    if (!preview) return;
    try {
      setPreview(await filesApi.stat(pid, preview.path));
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  // Drag-and-drop move (issue 13): the dragged files into a folder, one call per file like the bulk move; a
  // refusal stops there and says which file. Files already in that folder are left alone.
  const moveInto = async (paths: string[], dest: string) => {
    let done = 0;
    for (const p of paths) {
      if (parentOf(p) === dest) continue;
      try {
        await filesApi.move(pid, p, dest ? `${dest}/` : p.slice(p.lastIndexOf('/') + 1));
        done++;
      } catch (e) {
        fail(`${p}: ${errorText(e, t)}`);
        refresh();
        return;
      }
    }
    if (preview && paths.includes(preview.path)) setPreview(null);
    setChecked(new Set());
    setNotice({ kind: 'info', text: t('files.bulkMoved', { n: done }) });
    refresh();
  };

  // Stable row actions (the rows are memoised); they call the newest handlers through a ref.
  const latest = useRef({ select, move, moveInto, checked });
  latest.current = { select, move, moveInto, checked };
  // Folders take dropped rows only where a move can happen: an editor, browsing (not search results).
  const dropTarget = useDropTargets(
    useMemo(() => (canEdit && query.trim() === '' ? (paths: string[], dest: string) => void latest.current.moveInto(paths, dest) : null), [canEdit, query]),
  );
  const actions = useMemo(
    () => ({
      canEdit,
      onCheck: (f: FileInfo, on: boolean) =>
        setChecked((s) => {
          const n = new Set(s);
          if (on) n.add(f.path);
          else n.delete(f.path);
          return n;
        }),
      onOpen: setPreview,
      onDelete: setToDelete,
      onFolder: (p: string) => latest.current.select(p),
      onMove: (f: FileInfo, to: string) => latest.current.move(f, to),
      onDownload: (f: FileInfo) => void downloadFile(pid, f.path, f.name).catch(fail),
      dragPaths: (f: FileInfo) => (latest.current.checked.has(f.path) ? [...latest.current.checked] : [f.path]),
    }),
    [canEdit, pid, fail],
  );

  const searching = results !== null && query.trim() !== '';
  const shownFiles = useMemo(() => sortFiles(searching ? results.files : (current?.files ?? []), sort), [searching, results, current, sort]);
  useEffect(() => setChecked(new Set()), [folder, searching, pid]);
  const checkedFiles = shownFiles.filter((f) => checked.has(f.path));

  // Bulk actions run one file at a time through the same operations as the row buttons; a refusal stops there
  // and says which file, and the files already done stay done.
  const bulkRun = async (what: 'move' | 'delete') => {
    setBulk(null);
    const target = bulkTarget.trim().replace(/\/+$/, '');
    let done = 0;
    for (const f of checkedFiles) {
      try {
        if (what === 'move') await filesApi.move(pid, f.path, target ? `${target}/` : f.name);
        else await filesApi.remove(pid, f.path);
        done++;
      } catch (e) {
        fail(`${f.path}: ${errorText(e, t)}`);
        refresh();
        return;
      }
    }
    if (checkedFiles.some((f) => f.path === preview?.path)) setPreview(null);
    setChecked(new Set());
    setBulkTarget('');
    setNotice({ kind: 'info', text: t(what === 'move' ? 'files.bulkMoved' : 'files.bulkDeleted', { n: done }) });
    refresh();
  };

  return (
    <div className="files-page">
      <div className="page-head">
        <h1>{t('files.title')}</h1>
        {usage && (
          <p className="usage" data-used={usage.used} data-quota={usage.quota}>
            {t('files.usage', { used: formatBytes(usage.used), quota: formatBytes(usage.quota) })}
          </p>
        )}
      </div>
      <div className="files-layout">
        {drawer && <div className="drawer-back" onClick={() => setDrawer(false)} />}
        <FolderTree
          id="folder-tree"
          className={drawer ? 'open' : ''}
          folders={allFolders}
          selected={searching ? '\u0000' : folder}
          dropTarget={dropTarget}
          onSelect={(p) => {
            if (drawer) {
              setDrawer(false);
              drawerButton.current?.focus();
            }
            select(p);
          }}
        />
        <section
          className={`files-main${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            if (canEdit && e.dataTransfer.types.includes('Files')) {
              e.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            if (!canEdit) return;
            setNotice(null);
            void uploads.addDrop(pid, folder, e.dataTransfer.items).catch(fail);
          }}
        >
          {!searching && (
            <Breadcrumb
              label={t('files.breadcrumb')}
              root={t('files.root')}
              path={folder}
              href={(p) => (p ? `/files/${p.split('/').map(encodeURIComponent).join('/')}` : '/files')}
              onOpen={select}
              dropTarget={dropTarget}
            />
          )}
          <div className="toolbar">
            <button ref={drawerButton} className="drawer-toggle" aria-expanded={drawer} aria-controls="folder-tree" onClick={() => setDrawer((d) => !d)}>
              <Icon name="folder" /> {t('files.folders')}
            </button>
            <input
              type="search"
              className="file-search"
              placeholder={t('files.search')}
              aria-label={t('files.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
            <span className="spacer" />
            <input ref={input} type="file" multiple hidden onChange={(e) => upload(e.target.files, e.target)} data-testid="upload-input" />
            <button disabled={!canEdit} onClick={() => input.current?.click()}>
              <Icon name="upload" /> {t('files.upload')}
            </button>
            <input
              ref={folderInput}
              type="file"
              hidden
              {...{ webkitdirectory: '' }}
              onChange={(e) => upload(e.target.files, e.target)}
              data-testid="upload-folder-input"
            />
            <button disabled={!canEdit} onClick={() => folderInput.current?.click()}>
              <Icon name="upload" /> {t('files.uploadFolder')}
            </button>
            <button disabled={!canEdit} onClick={() => setShowNewFolder(true)}>
              <Icon name="plus" /> {t('files.newFolder')}
            </button>
            {!searching && (
              <button onClick={() => void downloadZip(pid, { folder }, `${folder.split('/').pop() || project.name}.zip`).catch(fail)}>
                <Icon name="download" /> {t('files.downloadFolder')}
              </button>
            )}
            {folder !== '' && !searching && (
              <button disabled={!canEdit} onClick={() => setFolderAction('move')}>
                {t('files.moveFolder')}
              </button>
            )}
            {folder !== '' && !searching && (
              <button disabled={!canEdit} onClick={() => setFolderAction('delete')}>
                {t('files.deleteFolder')}
              </button>
            )}
          </div>
          {folderAction === 'move' && (
            <MoveFolderForm folder={folder} onMove={(to) => void moveSelectedFolder(to)} onCancel={() => setFolderAction(null)} onError={fail} />
          )}
          {showNewFolder && (
            <NewFolderForm
              parent={folder}
              onCancel={() => setShowNewFolder(false)}
              onCreate={(p) => {
                // Folders are real (F9 as amended): the new folder is stored, so others see it and a reload keeps it.
                filesApi.createFolder(pid, p).then(() => {
                  setShowNewFolder(false);
                  select(p);
                  refresh();
                }, fail);
              }}
              onError={fail}
            />
          )}
          {!canEdit && <p className="hint">{t('files.viewerHint')}</p>}
          <UploadQueuePanel items={uploads.items} />
          {notice && (
            <p className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
              {notice.text}{' '}
              <button className="link" aria-label={t('common.close')} onClick={() => setNotice(null)}>
                <Icon name="close" />
              </button>
            </p>
          )}
          {searching && <h2 className="results-title">{t('files.searchResults', { q: results.q })}</h2>}
          {searching && results.truncated && <p className="notice warn">{t('files.searchTruncated', { n: results.files.length })}</p>}
          {!searching && page?.nextCursor && (
            <p className="notice warn" role="alert">
              {t('files.tooMany', { shown: page.files.length, total: page.total })}
            </p>
          )}
          {checkedFiles.length > 0 && (
            <form
              className="bulk-bar row"
              aria-label={t('files.selected', { n: checkedFiles.length })}
              onSubmit={(e) => {
                e.preventDefault();
                void bulkRun('move');
              }}
            >
              <strong role="status">{t('files.selected', { n: checkedFiles.length })}</strong>
              {/* Keyed, so React never turns the "Move to folder" button being clicked into the submit button in place. */}
              {bulk === 'move' ? (
                <Fragment key="moving">
                  <input
                    aria-label={t('files.bulkMoveTo')}
                    placeholder={t('files.bulkMoveTo')}
                    value={bulkTarget}
                    onChange={(e) => setBulkTarget(e.target.value)}
                    autoFocus
                  />
                  <button type="submit">{t('files.bulkMove')}</button>
                  <button type="button" onClick={() => setBulk(null)}>
                    {t('common.cancel')}
                  </button>
                </Fragment>
              ) : (
                <Fragment key="actions">
                  <button type="button" onClick={() => void downloadZip(pid, { paths: checkedFiles.map((f) => f.path) }, `${project.name}.zip`).catch(fail)}>
                    {t('files.bulkDownload')}
                  </button>
                  <button type="button" disabled={!canEdit} onClick={() => setBulk('move')}>
                    {t('files.bulkMove')}
                  </button>
                  <button type="button" disabled={!canEdit} className="danger" onClick={() => setBulk('delete')}>
                    {t('files.bulkDelete')}
                  </button>
                  <button type="button" className="link" onClick={() => setChecked(new Set())}>
                    {t('files.clearSelection')}
                  </button>
                </Fragment>
              )}
            </form>
          )}
          {!searching && !current ? (
            <LoadState error={loadError} onRetry={refresh} />
          ) : (
            <FileTable
              folders={searching ? [] : subfolders}
              files={shownFiles}
              showPaths={searching}
              selectedPath={preview?.path ?? null}
              checked={checked}
              onCheckAll={(on) => setChecked(on ? new Set(shownFiles.map((f) => f.path)) : new Set())}
              sort={sort}
              onSort={setSort}
              actions={actions}
              dropTarget={dropTarget}
            />
          )}
          {searching && results.files.length === 0 && <p className="empty">{t('files.noMatches')}</p>}
          {!searching && current && shownFiles.length === 0 && subfolders.length === 0 && <p className="empty">{t('files.empty')}</p>}
        </section>
        {preview && <PreviewPanel project={pid} file={preview} canEdit={canEdit} onClose={() => setPreview(null)} onChanged={reopenPreview} onError={fail} />}
      </div>
      {folderAction === 'delete' && (
        <ConfirmDialog
          message={t('files.deleteFolderConfirm', { path: folder })}
          confirmLabel={t('files.deleteFolder')}
          onConfirm={() => void deleteSelectedFolder()}
          onCancel={() => setFolderAction(null)}
        />
      )}
      {bulk === 'delete' && (
        <ConfirmDialog
          message={t('files.bulkDeleteConfirm', { n: checkedFiles.length, paths: pathList(checkedFiles) })}
          confirmLabel={t('files.bulkDelete')}
          onConfirm={() => void bulkRun('delete')}
          onCancel={() => setBulk(null)}
        />
      )}
      {toDelete && (
        <ConfirmDialog
          message={t('files.deleteConfirm', { path: toDelete.path })}
          confirmLabel={t('files.delete')}
          onConfirm={() => void remove(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
