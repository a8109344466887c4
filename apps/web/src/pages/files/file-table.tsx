import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { FileInfo, Folder } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { formatBytes, formatDate } from '../../format.js';
import { nameCollator } from '../../intl-cache.js';
import { CreatedBy } from './created-by.js';
import { Icon } from '../../components/icons.js';
import { fileKind, kindWord } from './file-kind.js';
import { startDrag, type DropProps } from './drag-move.js';
import { focusOnMount } from '../../components/focus-trap.js';

/** A sortable column of the table, and its direction; in the URL as ?sort=size&dir=desc. */
export type SortKey = 'name' | 'size' | 'modified';
export interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

/**
 * The files in the order of a column (names compared as people read them: "file 2" before "file 10").
 *
 * @example
 * sortFiles(files, { key: 'size', dir: 'desc' })[0] // the largest
 */
export function sortFiles(files: FileInfo[], sort: Sort): FileInfo[] {
  const names = nameCollator();
  // Paths and ISO timestamps are compared as plain strings: a locale-aware compare of each pair costs more than
  // the whole sort of a 200-file folder otherwise takes.
  const plain = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const by: Record<SortKey, (a: FileInfo, b: FileInfo) => number> = {
    name: (a, b) => names.compare(a.name, b.name) || plain(a.path, b.path),
    size: (a, b) => a.size - b.size || names.compare(a.name, b.name),
    modified: (a, b) => plain(a.modified, b.modified) || names.compare(a.name, b.name),
  };
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...files].sort((a, b) => sign * by[sort.key](a, b));
}

interface FileActions {
  canEdit: boolean;
  onCheck: (f: FileInfo, checked: boolean) => void;
  onOpen: (f: FileInfo) => void;
  onFolder: (path: string) => void;
  onDownload: (f: FileInfo) => void;
  /** Gives the file a new name in its own folder; answers whether it was renamed. */
  onRename: (f: FileInfo, name: string) => Promise<boolean>;
  /** Opens "Move to…" for this file. */
  onMoveTo: (f: FileInfo) => void;
  onDelete: (f: FileInfo) => void;
  /** What dragging this row carries: every ticked file when the row is ticked, else the row's file alone. */
  dragPaths: (f: FileInfo) => string[];
  /** The row named by `focusPath` was drawn and given focus back (or found focus elsewhere): done. */
  onFocused: () => void;
}

interface RowProps {
  file: FileInfo;
  showPath: boolean;
  selected: boolean;
  checked: boolean;
  editing: boolean;
  /** Focus comes back to this row's name (its preview just closed). */
  focus: boolean;
  actions: FileActions;
  setEditing: (path: string | null) => void;
  /** Position among the table's rows (1 is the header), for aria-rowindex: only some rows are in the page. */
  rowIndex: number;
  index: number;
  measure: (el: HTMLTableRowElement | null) => void;
}

/**
 * One file row. Memoised, so typing in the search box or opening a preview does not re-render thousands of
 * rows (a folder may show up to STOA_UI_MAX_FILES = 20,000).
 */
const FileRow = memo(function FileRow({ file: f, showPath, selected, checked, editing, focus, actions: a, setEditing, rowIndex, index, measure }: RowProps) {
  const { t, lang } = useI18n();
  const [target, setTarget] = useState(f.name);
  const [problem, setProblem] = useState<string | null>(null);
  const nameButton = useRef<HTMLButtonElement>(null);
  // Runs when the row is drawn too: on a phone the row comes back into the page only after the scroll back to it.
  useEffect(() => {
    if (!focus) return;
    // Only where nothing else has focus (the Close button that held it is gone): never taken from a field.
    if (!document.activeElement || document.activeElement === document.body) nameButton.current?.focus({ preventScroll: true });
    a.onFocused();
  }, [focus, a]);
  // Rename changes the name only (the file stays in its folder): a new user typing a name must not move the
  // file to the top, and moving has its own action, "Move to…".
  const submit = async () => {
    const name = target.trim();
    if (name === f.name || !name) return setEditing(null);
    if (name.includes('/')) return setProblem(t('files.renameSlash'));
    if (await a.onRename(f, name)) setEditing(null);
  };
  return (
    <tr
      data-path={f.path}
      className={selected ? 'selected' : ''}
      aria-rowindex={rowIndex}
      data-index={index}
      ref={measure}
      draggable={a.canEdit && !editing}
      onDragStart={(e) => startDrag(e, a.dragPaths(f))}
    >
      <td className="check">
        <input type="checkbox" aria-label={t('files.select', { name: f.name })} checked={checked} onChange={(e) => a.onCheck(f, e.target.checked)} />
      </td>
      <td className="name">
        {editing ? (
          <form
            className="rename"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <input
              aria-label={t('files.rename')}
              title={t('files.renameHint')}
              value={target}
              ref={focusOnMount}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `rename-problem-${index}` : undefined}
              onChange={(e) => {
                setTarget(e.target.value);
                setProblem(null);
              }}
              onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
            />
            <button type="submit">{t('common.save')}</button>
            <button type="button" onClick={() => setEditing(null)}>
              {t('common.cancel')}
            </button>
            {problem ? (
              <small id={`rename-problem-${index}`} className="error" role="alert">
                {problem}
              </small>
            ) : (
              <small>{t('files.renameHint')}</small>
            )}
          </form>
        ) : (
          <>
            <button ref={nameButton} className="link file-name" onClick={() => a.onOpen(f)}>
              <Icon name={`file-${fileKind(f.name, f.type)}`} />
              {f.name}
            </button>
            {showPath && <div className="full-path">{f.path}</div>}
          </>
        )}
      </td>
      <td className="created-by">
        <CreatedBy file={f} />
      </td>
      <td className="num" title={`${f.size} B`}>
        {formatBytes(f.size)}
      </td>
      <td className="type" title={f.type}>
        {t(`kind.${kindWord(f.name, f.type)}`)}
      </td>
      <td className="date">{formatDate(f.modified, lang)}</td>
      <td className="actions">
        <button title={t('files.download')} aria-label={`${t('files.download')} ${f.name}`} onClick={() => a.onDownload(f)}>
          <Icon name="download" />
        </button>
        <button
          title={t('files.rename')}
          aria-label={`${t('files.rename')} ${f.name}`}
          disabled={!a.canEdit}
          onClick={() => {
            setTarget(f.name);
            setProblem(null);
            setEditing(f.path);
          }}
        >
          <Icon name="edit" />
        </button>
        <button title={t('files.moveTo')} aria-label={`${t('files.moveTo')} ${f.name}`} disabled={!a.canEdit} onClick={() => a.onMoveTo(f)}>
          <Icon name="folder" />
        </button>
        <button title={t('files.delete')} aria-label={`${t('files.delete')} ${f.name}`} disabled={!a.canEdit} className="danger" onClick={() => a.onDelete(f)}>
          <Icon name="trash" />
        </button>
      </td>
    </tr>
  );
});

/** Rows drawn above and below the visible ones, so a quick scroll or Tab rarely meets an empty gap. */
const OVERSCAN = 12;
/**
 * A row's height (px) before it is measured, per layout (styles.css turns the table into a list at 700 px) and
 * kind. Real heights vary (long names wrap, search shows paths), but a guess that is right for the usual row spares
 * the virtualiser a second render of the whole window before the first paint (each measured row that differs
 * moves the rest, and more rows come into view).
 */
const ROW_GUESS = { table: { folder: 27, file: 33 }, list: { folder: 31, file: 58 } };
const LIST_LAYOUT = '(max-width: 700px)';

/**
 * Where the table's body starts on the page, kept current: the virtualiser counts rows from it, and bars above
 * the table (a notice, the bulk bar) come and go.
 */
function useOffsetTop(el: React.RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const node = el.current;
    if (!node) return;
    const now = node.getBoundingClientRect().top + window.scrollY;
    if (Math.abs(now - top) > 0.5) setTop(now);
  });
  return top;
}

/**
 * A row's height as the virtualizer's ResizeObserver reports it once the browser has laid the row out, and until
 * then the height already known or guessed. The library's default reads `offsetHeight` when a row is attached,
 * in the middle of the render: a layout of the whole page forced for the first row, and again wherever the rows
 * after it changed the page (≈ 25 ms of a warm first screen here, bench/README.md).
 */
function sizeFromObserver(row: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<Window, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = v.indexFromElement(row);
  return v.itemSizeCache.get(v.options.getItemKey(index)) ?? v.options.estimateSize(index);
}

/** False until the component's first render has been painted (a frame, then a task after it), then true. */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setPainted(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** Blank space standing for rows not in the page; hidden from screen readers, which count rows by aria-rowcount. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={7} />
    </tr>
  );
}

/**
 * The table of F5: Name (click → preview), Created by, Size, Type, Modified, Actions. In search mode
 * (`showPaths`) each name carries the file's full path (F7). Subfolders come first and open on click.
 *
 * @example
 * <FileTable folders={[]} files={page.files} showPaths={false} selectedPath={null} actions={actions} />
 */
export function FileTable(props: {
  folders: Folder[];
  files: FileInfo[];
  showPaths: boolean;
  selectedPath: string | null;
  /** The file whose name gets focus back once its row is drawn (its preview closed), or null. */
  focusPath: string | null;
  checked: ReadonlySet<string>;
  onCheckAll: (checked: boolean) => void;
  /** "Select all" was asked and the folder's later pages are still coming: the box stays ticked meanwhile. */
  selectingAll?: boolean;
  /** Files in the folder, when more than `files` (its later pages are still loading): counted for screen readers. */
  total?: number;
  sort: Sort;
  onSort: (s: Sort) => void;
  actions: FileActions;
  /** Lets a folder row take file rows dropped on it (a drag-and-drop move). */
  dropTarget: (folder: string) => DropProps;
}) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<string | null>(null);
  const a = props.actions;
  const body = useRef<HTMLTableSectionElement | null>(null);
  const top = useOffsetTop(body);
  // The first render draws only the rows on screen; those around them follow once it has been painted.
  const overscan = usePainted() ? OVERSCAN : 0;
  const folderCount = props.folders.length;
  const guess = window.matchMedia(LIST_LAYOUT).matches ? ROW_GUESS.list : ROW_GUESS.table;
  // Subfolders and files are one list of rows; only those near the screen are in the page (a folder may hold
  // 20,000 files), the rest is blank space of their measured or guessed height above and below.
  const v = useWindowVirtualizer({
    count: folderCount + props.files.length,
    estimateSize: (i) => (i < folderCount ? guess.folder : guess.file),
    overscan,
    scrollMargin: top,
    // The window's size is known without a layout: with it the first render draws the rows on screen (the default,
    // an empty window, draws none until the window has been measured, and then the rows in a second render).
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    getItemKey: (i) => (i < folderCount ? `d:${props.folders[i]!.path}` : props.files[i - folderCount]!.id),
    measureElement: sizeFromObserver,
  });
  const rows = v.getVirtualItems();
  const before = rows.length ? rows[0]!.start - top : 0;
  const after = rows.length ? v.getTotalSize() - (rows[rows.length - 1]!.end - top) : 0;
  const all = (props.selectingAll ?? false) || (props.files.length > 0 && props.files.every((f) => props.checked.has(f.path)));
  const some = !all && props.files.some((f) => props.checked.has(f.path));
  // A column header is a button that sorts by it; a second click turns the order round (aria-sort says which).
  const sortable = (key: SortKey, label: string, className?: string) => {
    const on = props.sort.key === key;
    return (
      <th className={className} aria-sort={on ? (props.sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
        <button
          type="button"
          className={`sort${on ? ` ${props.sort.dir}` : ''}`}
          onClick={() => props.onSort({ key, dir: on && props.sort.dir === 'asc' ? 'desc' : 'asc' })}
        >
          {label}
        </button>
      </th>
    );
  };
  return (
    <table className="files" aria-rowcount={folderCount + Math.max(props.files.length, props.total ?? 0) + 1}>
      <thead>
        <tr aria-rowindex={1}>
          <th className="check">
            <input
              type="checkbox"
              aria-label={t('files.selectAll')}
              checked={all}
              ref={(el) => {
                if (el) el.indeterminate = some;
              }}
              disabled={props.files.length === 0}
              onChange={(e) => props.onCheckAll(e.target.checked)}
            />
          </th>
          {sortable('name', t('files.col.name'))}
          <th>{t('files.col.createdBy')}</th>
          {sortable('size', t('files.col.size'), 'num')}
          <th>{t('files.col.type')}</th>
          {sortable('modified', t('files.col.modified'))}
          <th>{t('files.col.actions')}</th>
        </tr>
      </thead>
      <tbody ref={body}>
        {before > 0 && <Spacer height={before} />}
        {rows.map((r) => {
          if (r.index < folderCount) {
            const d = props.folders[r.index]!;
            return (
              <tr
                key={r.key}
                className="folder-row"
                aria-rowindex={r.index + 2}
                data-index={r.index}
                ref={v.measureElement}
                data-folder={d.path}
                {...props.dropTarget(d.path)}
              >
                <td colSpan={7}>
                  <button className="link" onClick={() => a.onFolder(d.path)}>
                    <Icon name="folder" /> {d.name}
                  </button>
                </td>
              </tr>
            );
          }
          const f = props.files[r.index - folderCount]!;
          return (
            <FileRow
              key={r.key}
              file={f}
              showPath={props.showPaths}
              selected={props.selectedPath === f.path}
              checked={props.checked.has(f.path)}
              editing={editing === f.path}
              focus={props.focusPath === f.path}
              actions={a}
              setEditing={setEditing}
              rowIndex={r.index + 2}
              index={r.index}
              measure={v.measureElement}
            />
          );
        })}
        {after > 0 && <Spacer height={after} />}
      </tbody>
    </table>
  );
}
