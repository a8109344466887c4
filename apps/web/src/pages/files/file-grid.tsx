import { useEffect, useRef, useState } from 'react';
import { routeIndex } from '@stoa/contract/route-index';
import { open } from '../../api/client.js';
import type { FileInfo, Folder } from '../../api/files.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/index.js';
import { formatBytes } from '../../format.js';
import { fileKind } from './file-kind.js';

type FilesView = 'list' | 'grid';
const VIEW_KEY = 'stoa.filesView';
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;

/**
 * The files view this person chose in this browser (list unless they chose the grid).
 *
 * @example
 * const [view, setView] = useFilesView();
 */
export function useFilesView(): [FilesView, (v: FilesView) => void] {
  const [view, setView] = useState<FilesView>(() => {
    try {
      return localStorage.getItem(VIEW_KEY) === 'grid' ? 'grid' : 'list';
    } catch {
      return 'list';
    }
  });
  const choose = (v: FilesView) => {
    setView(v);
    try {
      localStorage.setItem(VIEW_KEY, v);
    } catch {
      // Not remembered (storage refused); the choice holds for this visit.
    }
  };
  return [view, choose];
}

/**
 * A picture's thumbnail, made on the server and fetched with the reader's token once the card scrolls into view
 * (a folder of thousands of photos asks only for those seen); until then, or when there is none, the kind icon.
 */
function Thumb({ project, file }: { project: string; file: FileInfo }) {
  const box = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  useEffect(() => {
    if (!seen) return;
    let made: string | null = null;
    let live = true;
    open(routeIndex.thumbnails.get, { project, path: file.path })
      .then((r) => r.blob())
      .then(
        (b) => {
          made = URL.createObjectURL(b);
          if (live) setUrl(made);
          else URL.revokeObjectURL(made);
        },
        () => undefined,
      );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
    // A new version of the picture brings a new thumbnail.
  }, [seen, project, file.path, file.version]);
  return (
    <span ref={box} className="thumb">
      {url ? <img src={url} alt="" /> : <Icon name={`file-${fileKind(file.name, file.type)}`} />}
    </span>
  );
}

/**
 * The grid view of a folder: a card per folder and file, pictures with their thumbnail, other files with their
 * kind icon. A card opens the folder or the file's preview, like a row of the list.
 *
 * @example
 * <FileGrid project="default" folders={subfolders} files={files} onFolder={select} onOpen={preview} />
 */
export function FileGrid(props: {
  project: string;
  folders: Folder[];
  files: FileInfo[];
  selectedPath: string | null;
  onFolder: (path: string) => void;
  onOpen: (f: FileInfo) => void;
}) {
  const { t } = useI18n();
  return (
    <ul className="file-grid" aria-label={t('files.gridLabel')}>
      {props.folders.map((d) => (
        <li key={`d:${d.path}`} data-path={d.path}>
          <button type="button" className="card-button" onClick={() => props.onFolder(d.path)}>
            <span className="thumb">
              <Icon name="folder" />
            </span>
            <span className="card-name">{d.name}</span>
          </button>
        </li>
      ))}
      {props.files.map((f) => (
        <li key={f.path} data-path={f.path} className={props.selectedPath === f.path ? 'selected' : undefined}>
          <button type="button" className="card-button" onClick={() => props.onOpen(f)} aria-label={f.name}>
            {PICTURE.test(f.type) ? (
              <Thumb project={props.project} file={f} />
            ) : (
              <span className="thumb">
                <Icon name={`file-${fileKind(f.name, f.type)}`} />
              </span>
            )}
            <span className="card-name">{f.name}</span>
            <span className="card-size">{formatBytes(f.size)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
