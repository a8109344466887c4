import { useEffect, useState } from 'react';
import { filesApi, type FileInfo, type FolderPage } from '../../api/files.js';
import { parentOf } from './folder-route.js';
import { useRoute } from '../../router.js';

let linkedPage: { path: string; page: number } | null = null;

/**
 * The page of a PDF a link asked for (/files?path=…&page=N, a search hit in a document, issue 31), or null.
 *
 * @example
 * iframe.src = url + (linkedPdfPage(file.path) ? `#page=${linkedPdfPage(file.path)}` : '');
 */
export function linkedPdfPage(path: string): number | null {
  return linkedPage?.path === path ? linkedPage.page : null;
}

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
  const params = new URLSearchParams(useRoute().search);
  const linked = params.get('path');
  const atPage = Number(params.get('page'));
  useEffect(() => {
    if (!linked) return;
    // The address loses its query once the file's folder opens: the page to show is kept here.
    linkedPage = Number.isInteger(atPage) && atPage > 0 ? { path: linked, page: atPage } : null;
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
