import { useCallback, useEffect, useRef, useState } from 'react';
import { filesApi, type FileInfo, type FolderPage } from '../../api/files.js';
import { personalApi } from '../../api/personal.js';
import { navigate, useRoute } from '../../router.js';
import { folderHref, parentOf } from './folder-route.js';

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
 * The address of a file's preview: its folder with `?preview=<name>` (the table's order kept from `search`).
 *
 * @example
 * previewHref('reports/q1.md') // '/files/reports?preview=q1.md'
 */
export function previewHref(path: string, search = ''): string {
  const q = new URLSearchParams(search);
  q.delete('path');
  q.delete('page');
  q.delete('view');
  q.set('preview', path.slice(path.lastIndexOf('/') + 1));
  return `${folderHref(parentOf(path))}?${q.toString()}`;
}

const withQuery = (path: string, q: URLSearchParams) => (q.toString() ? `${path}?${q.toString()}` : path);

/**
 * The file shown in the preview panel, kept in the URL (`/files/reports?preview=q1.md`): a reload, Back and
 * Forward and a shared link open the same preview, and closing it takes `preview` off the address. The older link
 * to one file (/files?path=…) is turned into that address. When the listing shows a newer version of the file
 * (an upload, a colleague, an agent), the preview follows. Each preview opened is noted in the person's Recent.
 *
 * @example
 * const [preview, setPreview] = usePreview(pid, folder, page, fail);
 */
export function usePreview(pid: string, folder: string, page: FolderPage | null, fail: (e: unknown) => void) {
  const route = useRoute();
  const params = new URLSearchParams(route.search);
  const linked = params.get('path');
  const name = route.page === 'files' ? params.get('preview') : null;
  const wanted = name ? (folder ? `${folder}/${name}` : name) : null;
  const [preview, setShown] = useState<FileInfo | null>(null);
  const shown = useRef(preview);
  shown.current = preview;

  useEffect(() => {
    if (!linked) return;
    // The page of a PDF the link asked for (a search hit in a document) is kept here; the preview's address has none.
    const atPage = Number(params.get('page'));
    linkedPage = Number.isInteger(atPage) && atPage > 0 ? { path: linked, page: atPage } : null;
    navigate(previewHref(linked, route.search), true);
  }, [linked]);

  useEffect(() => {
    if (!wanted) return setShown(null);
    if (shown.current?.path === wanted) return;
    const listed = page?.files.find((f) => f.path === wanted);
    if (listed) return setShown(listed);
    let gone = false;
    filesApi.stat(pid, wanted).then(
      (f) => !gone && setShown(f),
      (e: unknown) => {
        if (gone) return;
        fail(e);
        // A preview of a file that is not there (deleted, or a wrong link) leaves the address.
        const q = new URLSearchParams(location.search);
        q.delete('preview');
        navigate(withQuery(location.pathname, q), true);
      },
    );
    return () => {
      gone = true;
    };
  }, [pid, wanted]);

  useEffect(() => {
    if (preview) personalApi.opened(pid, 'file', preview.path);
  }, [pid, preview?.path]);

  useEffect(() => {
    const now = page?.files.find((f) => f.path === preview?.path);
    if (now && preview && now.version !== preview.version) setShown(now);
  }, [page]);

  /** Opens a file's preview (its folder too, when it is elsewhere), or closes it with null. */
  const setPreview = useCallback((f: FileInfo | null) => {
    const q = new URLSearchParams(location.search);
    if (!f) {
      // Closed in this render, not after the address changes: the row then takes focus back from the Close button.
      setShown(null);
      if (!q.has('preview')) return;
      q.delete('preview');
      return navigate(withQuery(location.pathname, q));
    }
    setShown(f);
    const to = previewHref(f.path, location.search);
    if (to !== `${location.pathname}${location.search}`) navigate(to);
  }, []);
  return [preview, setPreview] as const;
}
