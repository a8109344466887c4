import { useEffect, useMemo, useState } from 'react';
import { filesApi, type Folder, type FolderPage, type Usage } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { parentOf } from './folder-route.js';

/**
 * What the Files page shows of the storage: every folder (the tree), the open folder's page, and the usage;
 * loaded again when `epoch` moves. `current` is null until the open folder's own answer is in (placeholders,
 * never the last folder's rows), and `loadError` says why a load failed.
 *
 * @example
 * const { current, subfolders, allFolders, usage, loadError } = useFolderListing(pid, folder, epoch, setFolder);
 */
export function useFolderListing(pid: string, folder: string, epoch: number, setFolder: (p: string, replace?: boolean) => void) {
  const { t } = useI18n();
  const [serverFolders, setServerFolders] = useState<Folder[]>([]);
  const [page, setPage] = useState<FolderPage | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  // The folder that the tree and page on screen were loaded for: until the next load lands they may not know a
  // folder just created or opened.
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  // Loading the open folder failed: said in place of the table, with Retry.
  const [loadError, setLoadError] = useState<string | null>(null);

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

  const allFolders = useMemo(() => serverFolders.map((f) => f.path), [serverFolders]);
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

  return { page, current, subfolders, allFolders, usage, loadError };
}
