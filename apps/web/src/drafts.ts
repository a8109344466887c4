import { useLayoutEffect, useRef } from 'react';
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
 * Keeps the editor's text as a draft while it differs from what was loaded, and asks before the tab is closed or
 * reloaded with unsaved text. Editors call `write` in their input handlers: the draft is in localStorage before
 * the handler returns, so a tab closed right after a keystroke (even past the leave prompt) keeps it; a render
 * that changes the draft any other way (a restored base, a merge) writes it too, at once, never a moment later.
 *
 * @example
 * const draft = useDraft(`memory:${project}:${file}`, dirty ? { text, base: doc.version } : null);
 * <textarea onChange={(e) => { setText(e.target.value); draft.write(e.target.value !== doc.content ? { text: e.target.value, base } : null); }} />
 * await save(); draft.discard();
 */
export function useDraft(
  key: string | null,
  unsaved: Omit<Draft, 'savedAt'> | null,
): { discard: () => void; keep: () => void; write: (next: Omit<Draft, 'savedAt'> | null) => void } {
  const dirty = unsaved !== null;
  const serialized = unsaved ? JSON.stringify(unsaved) : null;
  // What is in storage now, so a render that changed nothing writes nothing.
  const written = useRef<string | null | undefined>(undefined);
  const latest = useRef<{ key: string | null; value: string | null }>({ key, value: serialized });
  latest.current = { key, value: serialized };
  const write = (k: string | null, v: string | null): void => {
    if (!k) return;
    written.current = v;
    storeDraft(k, v ? (JSON.parse(v) as Omit<Draft, 'savedAt'>) : null);
  };
  // Unset until the first render: what storage holds then is the draft to restore, not to overwrite.
  const shownKey = useRef<string | null | undefined>(undefined);
  // A layout effect runs in the same task as the render; a plain one may come a task later. A render that
  // changed the key shows the text of the one before (another memory file is still loading): not a draft of it.
  useLayoutEffect(() => {
    if (shownKey.current !== key) {
      shownKey.current = key;
      written.current = undefined;
      return;
    }
    if (written.current !== serialized) write(key, serialized);
  }, [key, serialized]);
  useWarnBeforeLeaving(dirty);
  return {
    /** Writes this draft now (from an input handler: the event's value, before any render). */
    write: (next) => {
      const v = next ? JSON.stringify(next) : null;
      if (written.current !== v) write(latest.current.key, v);
    },
    /** Writes the draft now (a refused save: the text is never more at risk). */
    keep: () => write(latest.current.key, latest.current.value),
    /** Forgets the draft now (after a save, or when the user throws the changes away). */
    discard: () => {
      latest.current = { key: latest.current.key, value: null };
      write(latest.current.key, null);
    },
  };
}
