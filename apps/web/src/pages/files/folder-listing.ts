import { useEffect, useMemo, useState } from 'react';
import { arrived } from '../../api/client.js';
import { filesApi, type Folder, type FolderPage, type Usage } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { parentOf } from './folder-route.js';
import { nameCollator } from '../../intl-cache.js';

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

  return { page, current, subfolders, allFolders, usage, loadError };
}
