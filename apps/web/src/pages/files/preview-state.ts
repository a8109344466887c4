import { useEffect, useState } from 'react';
import { filesApi, type FileInfo, type FolderPage } from '../../api/files.js';
import { parentOf } from './folder-route.js';
import { useRoute } from '../../router.js';

/**
 * The file shown in the preview panel. A link to one file (/files?path=…, e.g. from search) opens its folder and
 * its preview; when the listing shows a newer version of it (an upload, a colleague, an agent), the preview
 * follows.
 *
 * @example
 * const [preview, setPreview] = usePreview(pid, page, setFolder, fail);
 */
export function usePreview(pid: string, page: FolderPage | null, setFolder: (p: string, replace?: boolean) => void, fail: (e: unknown) => void) {
  const [preview, setPreview] = useState<FileInfo | null>(null);
  // A link followed while the page is open (the command palette, a search hit) opens its file too.
  const linked = new URLSearchParams(useRoute().search).get('path');
  useEffect(() => {
    if (!linked) return;
    filesApi.stat(pid, linked).then((f) => {
      setFolder(parentOf(f.path), true);
      setPreview(f);
    }, fail);
  }, [pid, fail, linked]);
  useEffect(() => {
    const now = page?.files.find((f) => f.path === preview?.path);
    if (now && preview && now.version !== preview.version) setPreview(now);
  }, [page]);
  return [preview, setPreview] as const;
}
