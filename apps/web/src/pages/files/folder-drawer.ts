import { useLayoutEffect, useRef, useState } from 'react';

/**
 * Phones: the folder tree is a drawer over the page, opened by a button in the toolbar. When it opens, focus goes
 * to the tree; Escape closes it (before anything behind it) and gives focus back to the button.
 *
 * @example
 * const drawer = useFolderDrawer();
 * <button ref={drawer.button} aria-expanded={drawer.open} onClick={drawer.toggle}>Folders</button>
 */
export function useFolderDrawer() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const closeToButton = () => {
    setOpen(false);
    button.current?.focus();
  };
  // A layout effect, like the dialogs' focus trap: focus and the Escape key are taken as the drawer renders.
  useLayoutEffect(() => {
    if (!open) return;
    document.querySelector<HTMLElement>('#folder-tree [role="treeitem"][tabindex="0"]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // First in line (capture): Escape closes the drawer, not the preview behind it.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [open]);
  return {
    open,
    button,
    toggle: () => setOpen((d) => !d),
    /** The backdrop was tapped: the drawer goes, focus stays where the tap left it. */
    dismiss: () => setOpen(false),
    /** A folder was picked in the drawer: it goes, and focus returns to the button that opened it. */
    closeToButton,
  };
}
