import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { Icon } from '../../components/icons.js';
import { comparePaths } from '../../intl-cache.js';
import type { DropProps } from './drag-move.js';

interface Node {
  path: string;
  name: string;
  children: Node[];
}

/**
 * Builds the nested tree from folder paths (folders exist only as parts of paths, F2).
 *
 * @example
 * buildTree(['reports/2026']).children[0]!.children[0]!.path // "reports/2026"
 */
function buildTree(paths: Iterable<string>): Node {
  const root: Node = { path: '', name: '', children: [] };
  const byPath = new Map<string, Node>([['', root]]);
  const all = new Set<string>();
  for (const p of paths) {
    if (!p) continue;
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/'));
  }
  for (const path of [...all].sort((a, b) => comparePaths(a, b))) {
    const i = path.lastIndexOf('/');
    const parent = byPath.get(i < 0 ? '' : path.slice(0, i))!;
    const node: Node = { path, name: path.slice(i + 1), children: [] };
    parent.children.push(node);
    byPath.set(path, node);
  }
  return root;
}

/**
 * The folder tree of F5, as a WAI-ARIA tree: the root is "Project files"; a click or Enter opens a folder;
 * one item is in the Tab order at a time (roving tabindex) and the arrow keys walk the tree: Up/Down to the
 * previous/next visible folder, Right opens a folder or steps into it, Left closes it or steps out, Home/End
 * to the first/last. The selected folder's ancestors open whenever it changes.
 *
 * @example
 * <FolderTree folders={['reports', 'reports/2026']} selected="reports" onSelect={setFolder} />
 */
export function FolderTree(props: {
  folders: string[];
  selected: string;
  onSelect: (path: string) => void;
  /** Lets a folder take file rows dropped on it (a drag-and-drop move). */
  dropTarget?: (path: string) => DropProps;
  id?: string;
  className?: string;
}) {
  const { t } = useI18n();
  const idBase = useId();
  const tree = useMemo(() => buildTree(props.folders), [props.folders]);
  const [open, setOpen] = useState<Set<string>>(new Set(['']));
  const [focused, setFocused] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLDivElement>());
  const moveFocus = useRef(false);

  // The selected folder opens with its ancestors, so its subfolders show.
  useEffect(() => {
    const up = [...ancestors(props.selected), props.selected];
    setOpen((s) => (up.every((p) => s.has(p)) ? s : new Set([...s, ...up])));
  }, [props.selected]);

  const isOpen = (p: string) => p === '' || open.has(p);
  const setOpenOf = (p: string, value: boolean) =>
    setOpen((s) => {
      if (s.has(p) === value) return s;
      const n = new Set(s);
      if (value) n.add(p);
      else n.delete(p);
      return n;
    });

  // The visible items in order, each with its parent: what the arrow keys walk.
  const visible: Array<{ node: Node; parent: string | null }> = [];
  const walk = (node: Node, parent: string | null) => {
    visible.push({ node, parent });
    if (isOpen(node.path)) for (const c of node.children) walk(c, node.path);
  };
  walk(tree, null);
  const tabStop = visible.some((v) => v.node.path === focused) ? focused : visible.some((v) => v.node.path === props.selected) ? props.selected : '';

  // A layout effect: focus moves with the render, before the next key is handled (Preact runs a plain effect
  // only after the next paint, so ArrowDown then Enter at once would open the folder the focus was leaving).
  useLayoutEffect(() => {
    if (!moveFocus.current || focused === null) return;
    moveFocus.current = false;
    items.current.get(focused)?.focus();
  }, [focused, open]);
  const focusItem = (p: string) => {
    moveFocus.current = true;
    setFocused(p);
  };

  const onKey = (e: React.KeyboardEvent, node: Node, parent: string | null) => {
    const i = visible.findIndex((v) => v.node.path === node.path);
    const has = node.children.length > 0;
    const go = (p: string | undefined) => p !== undefined && focusItem(p);
    switch (e.key) {
      case 'ArrowDown':
        go(visible[i + 1]?.node.path);
        break;
      case 'ArrowUp':
        go(visible[i - 1]?.node.path);
        break;
      case 'Home':
        go(visible[0]?.node.path);
        break;
      case 'End':
        go(visible[visible.length - 1]?.node.path);
        break;
      case 'ArrowRight':
        if (has && !isOpen(node.path)) setOpenOf(node.path, true);
        else if (has) go(node.children[0]!.path);
        break;
      case 'ArrowLeft':
        if (has && isOpen(node.path) && node.path !== '') setOpenOf(node.path, false);
        else if (parent !== null) go(parent);
        break;
      case 'Enter':
      case ' ':
        props.onSelect(node.path);
        setOpenOf(node.path, true);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  let n = 0;
  const render = (node: Node, parent: string | null, depth: number) => {
    const groupId = `${idBase}-${n++}`;
    const has = node.children.length > 0;
    // The row is the treeitem and owns its group (the pattern of the WAI-ARIA navigation treeview): its name is
    // the folder's name alone, not the names of everything below it.
    return (
      <li key={node.path} role="none">
        <div
          ref={(el) => {
            if (el) items.current.set(node.path, el);
            else items.current.delete(node.path);
          }}
          role="treeitem"
          aria-level={depth + 1}
          aria-selected={props.selected === node.path}
          aria-expanded={has ? isOpen(node.path) : undefined}
          aria-owns={has && isOpen(node.path) ? groupId : undefined}
          tabIndex={tabStop === node.path ? 0 : -1}
          data-path={node.path}
          className={`tree-row${props.selected === node.path ? ' selected' : ''}`}
          style={{ paddingLeft: depth * 14 + 4 }}
          {...props.dropTarget?.(node.path)}
          onKeyDown={(e) => onKey(e, node, parent)}
          onFocus={() => setFocused(node.path)}
          onClick={() => {
            setFocused(node.path);
            props.onSelect(node.path);
            setOpenOf(node.path, true);
          }}
        >
          <span
            className="twisty"
            aria-hidden="true"
            onClick={(e) => {
              if (!has) return;
              e.stopPropagation();
              setOpenOf(node.path, !isOpen(node.path));
            }}
          >
            {has ? (isOpen(node.path) ? '▾' : '▸') : ''}
          </span>
          <span className="tree-name">
            {node.path === '' ? (
              <>
                <Icon name="storage" /> {t('files.root')}
              </>
            ) : (
              <>
                <Icon name="folder" /> {node.name}
              </>
            )}
          </span>
        </div>
        {has && isOpen(node.path) && (
          <ul role="group" id={groupId}>
            {node.children.map((c) => render(c, node.path, depth + 1))}
          </ul>
        )}
      </li>
    );
  };
  return (
    <nav id={props.id} className={`tree ${props.className ?? ''}`} aria-label={t('files.folders')}>
      <ul role="tree" aria-label={t('files.folders')}>
        {render(tree, null, 0)}
      </ul>
    </nav>
  );
}

/** The folders above a path, outermost first ("a/b/c" → "a", "a/b"). */
function ancestors(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
