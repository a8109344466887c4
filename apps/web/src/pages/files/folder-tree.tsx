import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { Icon } from '../../components/icons.js';

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
  for (const path of [...all].sort()) {
    const i = path.lastIndexOf('/');
    const parent = byPath.get(i < 0 ? '' : path.slice(0, i))!;
    const node: Node = { path, name: path.slice(i + 1), children: [] };
    parent.children.push(node);
    byPath.set(path, node);
  }
  return root;
}

/**
 * The folder tree of F5: the root is "Project files"; folders open on click, and the selected folder's
 * ancestors are always open.
 *
 * @example
 * <FolderTree folders={['reports', 'reports/2026']} selected="reports" onSelect={setFolder} />
 */
export function FolderTree(props: { folders: string[]; selected: string; onSelect: (path: string) => void }) {
  const { t } = useI18n();
  const tree = useMemo(() => buildTree(props.folders), [props.folders]);
  const [open, setOpen] = useState<Set<string>>(new Set(['']));
  const isOpen = (p: string) => p === '' || open.has(p) || props.selected === p || props.selected.startsWith(p + '/');
  const toggle = (p: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(p)) n.delete(p);
      else n.add(p);
      return n;
    });

  const render = (node: Node, depth: number) => (
    <li key={node.path} role="treeitem" aria-selected={props.selected === node.path} aria-expanded={node.children.length ? isOpen(node.path) : undefined}>
      <div className={`tree-row${props.selected === node.path ? ' selected' : ''}`} style={{ paddingLeft: depth * 14 + 4 }}>
        <button className="twisty" aria-hidden={!node.children.length} tabIndex={-1} onClick={() => node.children.length && toggle(node.path)}>
          {node.children.length ? (isOpen(node.path) ? '▾' : '▸') : ''}
        </button>
        <button
          className="tree-name"
          data-path={node.path}
          onClick={() => {
            props.onSelect(node.path);
            if (!open.has(node.path)) toggle(node.path);
          }}
        >
          {node.path === '' ? (
            <>
              <Icon name="storage" /> {t('files.root')}
            </>
          ) : (
            <>
              <Icon name="folder" /> {node.name}
            </>
          )}
        </button>
      </div>
      {node.children.length > 0 && isOpen(node.path) && <ul role="group">{node.children.map((c) => render(c, depth + 1))}</ul>}
    </li>
  );
  return (
    <nav className="tree" aria-label={t('files.folders')}>
      <ul role="tree">{render(tree, 0)}</ul>
    </nav>
  );
}
