import { useState } from 'react';
import { filesApi } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { parentOf } from './folder-route.js';

/**
 * What the toolbar does to folders: create one (stored, F9 as amended, so others see it and a reload keeps it),
 * and move or delete the open folder whole (F10, F13 as amended: metadata only on the server, one step here).
 * `showNew` and `action` say which form or confirmation is open.
 *
 * @example
 * const folders = useFolderActions({ pid, folder, select, refresh, say, fail, closePreview });
 * <MoveFolderForm folder={folder} onMove={(to) => void folders.move(to)} onCancel={() => folders.setAction(null)} onError={fail} />
 */
export function useFolderActions(o: {
  pid: string;
  folder: string;
  select: (p: string) => void;
  refresh: () => void;
  say: (text: string) => void;
  fail: (e: unknown) => void;
  closePreview: () => void;
}) {
  const { t } = useI18n();
  const [showNew, setShowNew] = useState(false);
  const [action, setAction] = useState<'move' | 'delete' | null>(null);
  const { pid, folder, select, refresh, say, fail, closePreview } = o;

  const create = (p: string) =>
    filesApi.createFolder(pid, p).then(() => {
      setShowNew(false);
      select(p);
      refresh();
    }, fail);

  const move = async (to: string) => {
    try {
      const moved = await filesApi.moveFolder(pid, folder, to);
      setAction(null);
      say(t('files.moved', { path: moved.path }));
      closePreview();
      select(moved.path);
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  const remove = async () => {
    setAction(null);
    try {
      await filesApi.removeFolder(pid, folder);
      say(t('files.deleted', { path: folder }));
      closePreview();
      select(parentOf(folder));
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  return { showNew, setShowNew, action, setAction, create, move, remove };
}
