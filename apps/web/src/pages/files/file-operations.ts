import { filesApi, type FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { parentOf } from './folder-route.js';

/**
 * What the page does to files: rename one (in its folder) or move it to another folder, delete one, and move or delete many. Many go one file at a
 * time through the same operations as the row buttons; a refusal stops there and says which file, and the files
 * already done stay done. The preview closes when its file goes, and the listing reloads after each.
 *
 * @example
 * const ops = useFileOperations({ pid, preview, setPreview, clearChecked, say, fail, refresh });
 * await ops.moveEach(['a.txt', 'b.txt'], 'archive');
 */
export function useFileOperations(o: {
  pid: string;
  preview: FileInfo | null;
  setPreview: (f: FileInfo | null) => void;
  clearChecked: () => void;
  say: (text: string) => void;
  fail: (e: unknown) => void;
  refresh: () => void;
}) {
  const { t } = useI18n();
  const { pid, preview, setPreview, clearChecked, say, fail, refresh } = o;

  const move = async (f: FileInfo, to: string, renamed = false) => {
    try {
      const moved = await filesApi.move(pid, f.path, to);
      say(renamed ? t('files.renamed', { name: moved.name }) : t('files.moved', { path: moved.path }));
      if (preview?.path === f.path) setPreview(moved);
      refresh();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };

  const remove = async (f: FileInfo) => {
    try {
      await filesApi.remove(pid, f.path);
      say(t('files.deleted', { path: f.path }));
      if (preview?.path === f.path) setPreview(null);
      refresh();
    } catch (e) {
      fail(e);
    }
  };

  // `step` answers null for a file it leaves alone (not counted as done).
  const runEach = async (paths: string[], step: (path: string) => Promise<unknown> | null, said: 'files.bulkMoved' | 'files.bulkDeleted') => {
    let done = 0;
    for (const p of paths) {
      const running = step(p);
      if (!running) continue;
      try {
        await running;
        done++;
      } catch (e) {
        fail(`${p}: ${errorText(e, t)}`);
        refresh();
        return false;
      }
    }
    if (preview && paths.includes(preview.path)) setPreview(null);
    clearChecked();
    say(t(said, { n: done }));
    refresh();
    return true;
  };

  const moveTo = (p: string, dest: string) => filesApi.move(pid, p, dest ? `${dest}/` : p.slice(p.lastIndexOf('/') + 1));

  const parent = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
  return {
    /** A new name for the file in its own folder. */
    rename: (f: FileInfo, name: string) => move(f, parent(f.path) ? `${parent(f.path)}/${name}` : name, true),
    /** The file into folder `dest` ('' for the top), keeping its name. */
    moveInto: (f: FileInfo, dest: string) => move(f, dest ? `${dest}/` : f.name),
    remove,
    /** The files into folder `dest` ('' for the top). */
    moveEach: (paths: string[], dest: string) => runEach(paths, (p) => moveTo(p, dest), 'files.bulkMoved'),
    /** Dragged rows dropped on a folder (issue 13): files already in that folder are left alone. */
    moveDropped: (paths: string[], dest: string) => runEach(paths, (p) => (parentOf(p) === dest ? null : moveTo(p, dest)), 'files.bulkMoved'),
    removeEach: (paths: string[]) => runEach(paths, (p) => filesApi.remove(pid, p), 'files.bulkDeleted'),
  };
}
