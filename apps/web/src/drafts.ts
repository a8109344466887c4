import { useEffect, useRef } from 'react';
import { useWarnBeforeLeaving } from './warn-before-leaving.js';

/** Unsaved text of one editor, kept in this browser until it is saved or thrown away. */
export interface Draft {
  text: string;
  title?: string;
  /** A new page's path, as typed. */
  path?: string;
  /** The version the editing started from (a save then checks it, as without a draft). */
  base: number;
  savedAt: string;
}

const PREFIX = 'stoa.draft.';

/**
 * The draft kept under `key`, or null.
 *
 * @example
 * const d = loadDraft('wiki:prj_1:handbook/refunds');
 */
export function loadDraft(key: string): Draft | null {
  try {
    const d = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null') as Draft | null;
    return d && typeof d.text === 'string' && typeof d.base === 'number' ? d : null;
  } catch {
    return null;
  }
}

/** Keeps (or, with null, forgets) the draft under `key`. A full storage only means no draft is kept. */
function storeDraft(key: string, draft: Omit<Draft, 'savedAt'> | null): void {
  try {
    if (draft) localStorage.setItem(PREFIX + key, JSON.stringify({ ...draft, savedAt: new Date().toISOString() }));
    else localStorage.removeItem(PREFIX + key);
  } catch {
    // Storage full or blocked: the editor still works, without a draft.
  }
}

/**
 * Keeps the editor's text as a draft while it differs from what was loaded (a moment after each change, and at
 * once when the editor goes away), and asks before the tab is closed or reloaded with unsaved text.
 *
 * @example
 * const draft = useDraft(`memory:${project}:${file}`, dirty ? { text, base: doc.version } : null);
 * await save(); draft.discard();
 */
export function useDraft(key: string | null, unsaved: Omit<Draft, 'savedAt'> | null): { discard: () => void; keep: () => void } {
  const dirty = unsaved !== null;
  const serialized = unsaved ? JSON.stringify(unsaved) : null;
  const latest = useRef<{ key: string | null; value: string | null }>({ key, value: serialized });
  latest.current = { key, value: serialized };
  const write = (k: string | null, v: string | null): void => {
    if (k) storeDraft(k, v ? (JSON.parse(v) as Omit<Draft, 'savedAt'>) : null);
  };
  useEffect(() => {
    const timer = setTimeout(() => write(key, serialized), 300);
    return () => clearTimeout(timer);
  }, [key, serialized]);
  // Leaving the editor (another page, Cancel after a save) writes what the last keystrokes changed at once.
  useEffect(() => () => write(latest.current.key, latest.current.value), []);
  useWarnBeforeLeaving(dirty);
  return {
    /** Writes the draft now, not a moment later (a refused save: the text is never more at risk). */
    keep: () => write(latest.current.key, latest.current.value),
    /** Forgets the draft now (after a save, or when the user throws the changes away). */
    discard: () => {
      latest.current = { key: latest.current.key, value: null };
      write(latest.current.key, null);
    },
  };
}
