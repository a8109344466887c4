import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { arrived } from '../../api/client.js';
import { filesApi, type FileInfo, type Folder, type FolderPage, type Usage } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { parentOf } from './folder-route.js';
import { nameCollator } from '../../intl-cache.js';

/** Appends a later page to the rows so far; a file renamed between two pages is kept once, where it is now. */
function joinPages(sofar: FolderPage, next: FolderPage): FolderPage {
  const ids = new Set(next.files.map((f) => f.id));
  return { ...sofar, files: [...sofar.files.filter((f) => !ids.has(f.id)), ...next.files], nextCursor: next.nextCursor, total: next.total };
}

/**
 * What the Files page shows of the storage: every folder (the tree), the open folder's files, and the usage;
 * loaded again when `epoch` moves. The folder comes a page at a time: the first (small) page is drawn at once,
 * and the pages after it are fetched one after another in the background and appended, so a folder of
 * thousands of files shows its first rows as fast as one of twenty. `complete` is true once every page is in,
 * and `whole()` waits for that ("select all" means every file of the folder, not the rows loaded so far).
 * `current` is null until the open folder's own answer is in (placeholders, never the last folder's rows), and
 * `loadError` says why a load failed. A reload of the folder on screen (a live change, an upload) swaps the rows
 * only once all its pages are in, so the table does not shrink to one page under a reader scrolled far down.
 *
 * @example
 * const { current, subfolders, allFolders, usage, loadError, whole } = useFolderListing(pid, folder, epoch, setFolder);
 */
export function useFolderListing(pid: string, folder: string, epoch: number, setFolder: (p: string, replace?: boolean) => void) {
  const { t } = useI18n();
  // On the first load the answers are usually in before this first render (first-load.ts asked for them):
  // shown at once, the rows are in the first frame, not a frame after placeholders. All three or none, as a load
  // sets them: a folder page without its tree would look like a folder that no longer exists.
  const [first] = useState(() => {
    const tree = arrived(() => filesApi.tree(pid));
    const pg = arrived(() => filesApi.folder(pid, folder));
    const u = arrived(() => filesApi.usage(pid));
    return tree && pg && u ? { tree, pg, u } : null;
  });
  const [serverFolders, setServerFolders] = useState<Folder[]>(first?.tree ?? []);
  const [page, setPage] = useState<FolderPage | null>(first?.pg ?? null);
  const [usage, setUsage] = useState<Usage | null>(first?.u ?? null);
  // The folder that the tree and page on screen were loaded for: until the next load lands they may not know a
  // folder just created or opened.
  const [loadedFor, setLoadedFor] = useState<string | null>(first ? folder : null);
  // Loading the open folder failed: said in place of the table, with Retry.
  const [loadError, setLoadError] = useState<string | null>(null);

  // Settles with the folder's rows once its last page is in (or the load stops); replaced by every new load.
  const wholeRef = useRef<{ key: string; done: Promise<FileInfo[]> } | null>(null);
  // The folder whose rows the effect below last drew (the first render's early answer does not count: its load
  // goes on to the later pages as usual).
  const shownFor = useRef<string | null>(null);

  useEffect(() => {
    let gone = false;
    const key = `${pid} ${folder}`;
    // The same folder loaded again: keep its rows on screen until the new ones are all in.
    const reload = shownFor.current === key;
    let settle: (files: FileInfo[]) => void = () => undefined;
    wholeRef.current = { key, done: new Promise<FileInfo[]>((resolve) => (settle = resolve)) };
    const show = (pg: FolderPage) => {
      setPage(pg);
      setLoadedFor(folder);
      shownFor.current = key;
    };
    // Up to the server's STOA_UI_MAX_FILES (`showMax`): past it the page says how many there are (F5).
    const rest = async (pg: FolderPage, each: (pg: FolderPage) => void): Promise<FolderPage> => {
      while (pg.nextCursor && pg.files.length < pg.showMax && !gone) {
        pg = joinPages(pg, await filesApi.folder(pid, folder, pg.nextCursor));
        if (pg.files.length > pg.showMax) pg = { ...pg, files: pg.files.slice(0, pg.showMax) };
        if (!gone) each(pg);
      }
      return pg;
    };
    Promise.all([filesApi.tree(pid), filesApi.folder(pid, folder), filesApi.usage(pid)])
      .then(async ([tree, pg, u]) => {
        if (reload) pg = await rest(pg, () => undefined);
        if (gone) return;
        setServerFolders(tree);
        setUsage(u);
        setLoadError(null);
        show(pg);
        settle((await rest(pg, show)).files);
      })
      .catch((e: unknown) => {
        if (!gone) setLoadError(errorText(e, t));
        settle([]);
      });
    return () => {
      gone = true;
      settle([]);
    };
  }, [pid, folder, epoch, t]);

  /** Every file of the open folder (up to STOA_UI_MAX_FILES), once its last page is in. */
  const whole = useCallback(() => wholeRef.current?.done ?? Promise.resolve([]), []);

  const allFolders = useMemo(() => serverFolders.map((f) => f.path), [serverFolders]);
  const current = page && loadedFor === folder ? page : null;
  const subfolders = useMemo(() => [...(current?.folders ?? [])].sort((a, b) => nameCollator().compare(a.name, b.name)), [current]);

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

  const complete = !!current && (!current.nextCursor || current.files.length >= current.showMax);
  return { page, current, subfolders, allFolders, usage, loadError, complete, whole };
}
