import { useLayoutEffect } from 'react';

/**
 * Makes the browser ask before the tab closes or reloads while `active` (unsaved text, uploads under way). Set up
 * in a layout effect, in the render that made it true: Preact runs plain effects in a later task, and a tab closed
 * within that moment would go without asking.
 *
 * @example
 * useWarnBeforeLeaving(draft !== null);
 */
export function useWarnBeforeLeaving(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
