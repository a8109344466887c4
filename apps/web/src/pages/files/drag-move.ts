import { useCallback, useState } from 'react';

/** Our own drag type, so a drag of files from the desktop (an upload) never looks like a move, nor the reverse. */
const TYPE = 'application/x-stoa-paths';

/**
 * Starts dragging file rows: the paths travel in the drag, read back by a folder that takes the drop.
 *
 * @example
 * <tr draggable onDragStart={(e) => startDrag(e, ['reports/plan.txt'])} />
 */
export function startDrag(e: React.DragEvent, paths: string[]): void {
  e.dataTransfer.setData(TYPE, JSON.stringify(paths));
  e.dataTransfer.setData('text/plain', paths.join('\n'));
  e.dataTransfer.effectAllowed = 'move';
}

/** The dragged paths, or none when the drag is not ours or its data is not a list of paths. */
function droppedPaths(e: React.DragEvent): string[] {
  try {
    const value: unknown = JSON.parse(e.dataTransfer.getData(TYPE) || '[]');
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string' && p !== '') : [];
  } catch {
    return [];
  }
}

/** What a folder element spreads on itself to take dropped files: the handlers, and a mark while one is over it. */
export type DropProps = Pick<React.HTMLAttributes<HTMLElement>, 'onDragOver' | 'onDragLeave' | 'onDrop'> & { 'data-drop-over'?: true };

/**
 * Folders as drop targets (the table's folder rows, the tree, the breadcrumb): for dragged file rows, which move
 * there, and, with `onFiles`, for files and folders dragged from the desktop, which upload there rather than into
 * the open folder. One hook for all of them, so only the folder under the pointer is highlighted. Without
 * `onDrop` (a viewer, search results) nothing takes a drop.
 *
 * @example
 * const target = useDropTargets((paths, folder) => moveInto(paths, folder), (items, folder) => upload(items, folder));
 * <tr {...target('reports')} />
 */
export function useDropTargets(
  onDrop: ((paths: string[], folder: string) => void) | null,
  onFiles?: (items: DataTransferItemList, folder: string) => void,
): (folder: string) => DropProps {
  const [over, setOver] = useState<string | null>(null);
  return useCallback(
    (folder: string): DropProps => {
      if (!onDrop) return {};
      const what = (e: React.DragEvent) => (e.dataTransfer.types.includes(TYPE) ? 'rows' : onFiles && e.dataTransfer.types.includes('Files') ? 'files' : null);
      return {
        ...(over === folder ? { 'data-drop-over': true } : {}),
        onDragOver: (e) => {
          const kind = what(e);
          // Taken by a folder inside this one (a tree item's subfolder) already.
          if (!kind || e.defaultPrevented) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = kind === 'rows' ? 'move' : 'copy';
          setOver(folder);
        },
        onDragLeave: (e) => {
          // Moving onto a child of the target (the icon, the name) is not leaving it.
          if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
          setOver((o) => (o === folder ? null : o));
        },
        onDrop: (e) => {
          const kind = what(e);
          if (!kind || e.defaultPrevented) return;
          // Marked as taken rather than stopped: a folder around this one leaves it, and the page's drop zone only
          // clears its mark.
          e.preventDefault();
          setOver(null);
          if (kind === 'files') return onFiles!(e.dataTransfer.items, folder);
          const paths = droppedPaths(e);
          if (paths.length > 0) onDrop(paths, folder);
        },
      };
    },
    [onDrop, onFiles, over],
  );
}
