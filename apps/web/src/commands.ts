import { useEffect, useRef } from 'react';

/** What the command palette asks a page to do once it is on screen. */
type PageAction = 'upload' | 'newFolder' | 'newPage';

const EVENT = 'stoa:page-action';
let pending: PageAction | null = null;

/**
 * Asks the page that handles `action` to do it: at once if it is on screen, else as soon as it mounts (the
 * palette navigates there first). A request nobody takes is dropped by the next one.
 *
 * @example
 * navigate('/files'); requestPageAction('newFolder');
 */
export function requestPageAction(action: PageAction): void {
  pending = action;
  window.dispatchEvent(new CustomEvent(EVENT, { detail: action }));
}

/**
 * Does `action` when the palette asks for it, on this page (see requestPageAction).
 *
 * @example
 * usePageAction('newFolder', () => setShowNew(true));
 */
export function usePageAction(action: PageAction, run: () => void): void {
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    const take = () => {
      if (pending !== action) return;
      pending = null;
      latest.current();
    };
    take();
    window.addEventListener(EVENT, take);
    return () => window.removeEventListener(EVENT, take);
  }, [action]);
}
